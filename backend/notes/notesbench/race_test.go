package notesbench

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/notes"
)

// Think times are a tenth of the reference article's so the suite stays fast; the
// invariants do not depend on them. The bench runs the reference article's figures.
var (
	fastAgent  = [2]time.Duration{2 * time.Millisecond, 8 * time.Millisecond}
	fastPerson = [2]time.Duration{500 * time.Microsecond, 4 * time.Millisecond}
	idleAgent  = [2]time.Duration{2500 * time.Microsecond, 7500 * time.Microsecond}
	idlePerson = [2]time.Duration{5500 * time.Microsecond, 10 * time.Millisecond}
)

func TestRaceInvariants(t *testing.T) {
	cases := []struct {
		name  string
		cfg   RaceConfig
		check func(t *testing.T, r RaceResult)
	}{
		{"note version + re-apply loses nothing", RaceConfig{Scope: notes.ScopeNote, Policy: Reapply},
			func(t *testing.T, r RaceResult) {
				if r.Lost() != 0 {
					t.Fatalf("lost %d lines with re-apply", r.Lost())
				}
			}},
		{"tab version + split tabs: no conflicts, nothing lost", RaceConfig{Scope: notes.ScopeTab, Policy: Reapply, SplitTabs: true},
			func(t *testing.T, r RaceResult) {
				if r.Lost() != 0 || r.ConflictsAgent+r.ConflictsPerson != 0 {
					t.Fatalf("tab scope on separate tabs: lost %d, conflicts %d/%d", r.Lost(), r.ConflictsAgent, r.ConflictsPerson)
				}
			}},
		{"note version + split tabs loses nothing", RaceConfig{Scope: notes.ScopeNote, Policy: Reapply, SplitTabs: true},
			func(t *testing.T, r RaceResult) {
				if r.Lost() != 0 {
					t.Fatalf("lost %d", r.Lost())
				}
			}},
		{"counter versions under zero think time lose nothing", RaceConfig{Scope: notes.ScopeNote, Policy: Reapply, Edits: 300},
			func(t *testing.T, r RaceResult) {
				if r.Lost() != 0 {
					t.Fatalf("lost %d", r.Lost())
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := int64(1); seed <= 2; seed++ {
				cfg := c.cfg
				cfg.Seed = seed
				if cfg.Edits == 0 {
					cfg.Edits, cfg.AgentThink, cfg.PersonThink = 30, fastAgent, fastPerson
					cfg.AgentIdle, cfg.PersonIdle = idleAgent, idlePerson
				}
				r, err := Race(context.Background(), filepath.Join(t.TempDir(), fmt.Sprint(seed)), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if r.AttemptsAgent < cfg.Edits || r.AttemptsPerson < cfg.Edits {
					t.Fatalf("editors did not finish: %+v", r)
				}
				c.check(t, r)
			}
		})
	}
}

func TestCreatesWithKeyNeverDuplicate(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		with, err := Creates(context.Background(), filepath.Join(t.TempDir(), "with"), seed, 50, 0.3, true)
		if err != nil {
			t.Fatal(err)
		}
		if with.Created != 50 || with.Duplicates != 0 {
			t.Fatalf("seed %d with key: %+v, want 50 created, 0 duplicates", seed, with)
		}
		without, err := Creates(context.Background(), filepath.Join(t.TempDir(), "without"), seed, 50, 0.3, false)
		if err != nil {
			t.Fatal(err)
		}
		// Same seed, same drops: every retried call without a key is a duplicate.
		if without.Calls != with.Calls || without.Duplicates != without.Calls-50 || without.Duplicates == 0 {
			t.Fatalf("seed %d without key: %+v (with key %+v)", seed, without, with)
		}
	}
}
