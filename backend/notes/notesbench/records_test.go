package notesbench

import (
	"context"
	"testing"
)

// The person in the Records editor and an agent's edit_record_item race on
// one item's body: with conditional writes and re-apply on a conflict,
// nothing either of them wrote is lost, and the item took exactly one
// version bump per applied write.
func TestRecordRaceLosesNothing(t *testing.T) {
	r, err := RecordRace(context.Background(), t.TempDir(), RaceConfig{Seed: 3, Edits: 40,
		AgentThink: fastAgent, PersonThink: fastPerson, AgentIdle: idleAgent, PersonIdle: idlePerson})
	if err != nil {
		t.Fatal(err)
	}
	if r.Intended != 80 || r.Lost() != 0 {
		t.Fatalf("lost %d of %d lines (agent %d, person %d)", r.Lost(), r.Intended, r.LostAgent, r.LostPerson)
	}
	applied := (r.AttemptsAgent - r.ConflictsAgent) + (r.AttemptsPerson - r.ConflictsPerson)
	if applied != 80 || r.Versions != 80 {
		t.Fatalf("%d writes applied, %d version bumps; want 80 of each", applied, r.Versions)
	}
	t.Logf("conflicts: agent %d, person %d", r.ConflictsAgent, r.ConflictsPerson)
}
