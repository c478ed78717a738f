//go:build !windows

package runs_test

import (
	"context"
	"testing"
)

// A finished run's CLI session is listed with the title its chat has now.
func TestSessionRunsCarryTheChatsTitle(t *testing.T) {
	r := newRig(t, "ok")
	e := r.engine(t)
	ctx := context.Background()
	if _, err := r.db.Exec(`INSERT INTO pipeline_chats (id, title, created_at, updated_at) VALUES ('c-1', 'Launch checklist', 1, 1)`); err != nil {
		t.Fatal(err)
	}
	spec := r.spec(t)
	spec.ChatID = "c-1"
	run, err := e.Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	wait(t, e, run.ID)
	got, err := e.SessionRuns(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].SessionID != "sess-1" || got[0].RunID != run.ID || got[0].ChatID != "c-1" || got[0].Title != "Launch checklist" {
		t.Fatalf("session runs = %+v", got)
	}
}
