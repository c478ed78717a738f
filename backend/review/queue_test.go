package review

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

// "Send to agent" queued while the agent works survives a restart of the
// app: the next app (the same database file, the pane restored with its
// id) sends it once the pane's agent is idle, and only once; a pane that
// closes drops its queue for good, its comments kept.
func TestQueuedSendSurvivesARestart(t *testing.T) {
	r := newRig(t, "one", "two")
	var path string
	if err := r.svc.comments.db.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&path); err != nil || path == "" {
		t.Fatalf("the database file: %q %v", path, err)
	}
	if _, err := r.svc.AddComment("p1", Comment{Path: "app.js", Line: 2, Side: "new", Text: "Spell two out"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.AddComment("p2", Comment{Path: "app.js", Line: 4, Side: "new", Text: "Drop four"}); err != nil {
		t.Fatal(err)
	}
	r.agent.set("working")
	for _, p := range []string{"p1", "p2"} {
		if d, err := r.svc.Send(p); err != nil || d.State != "queued" {
			t.Fatalf("send %s while working = %+v, %v", p, d, err)
		}
	}
	r.svc.Forget("p2") // the person closed that pane

	// The app quits; a new one opens the same database.
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cs, err := OpenComments(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	agent := &fakeAgent{}
	svc := New(Options{Panes: r.panes, Agent: agent, Comments: cs, Env: gitEnv})
	if !svc.Queued("p1") || svc.Queued("p2") {
		t.Fatalf("after the restart: p1 queued %v, p2 queued %v (want true, false)", svc.Queued("p1"), svc.Queued("p2"))
	}
	if rv, err := svc.Review("p1"); err != nil || !rv.Queued {
		t.Fatalf("the Review after the restart = %+v, %v", rv.Queued, err)
	}
	svc.AgentChanged("p1") // the pane is not back yet
	agent.set("working")
	svc.AgentChanged("p1")
	if len(agent.sent()) != 0 {
		t.Fatalf("typed into an agent not idle: %q", agent.sent())
	}
	agent.set("idle")
	svc.AgentChanged("p1")
	svc.AgentChanged("p1")
	sent := agent.sent()
	if len(sent) != 1 || !strings.Contains(sent[0], "app.js:2 — Spell two out") || strings.Contains(sent[0], "Drop four") {
		t.Fatalf("sent after the restart: %q", sent)
	}
	if svc.Queued("p1") {
		t.Fatal("still queued after sending")
	}
	// A third start has nothing left to send.
	again := New(Options{Panes: r.panes, Agent: agent, Comments: cs, Env: gitEnv})
	if again.Queued("p1") || again.Queued("p2") {
		t.Fatal("a sent queue came back")
	}
	if rv, _ := again.Review("p2"); len(rv.Comments) != 1 {
		t.Fatalf("the closed pane's comments: %+v", rv.Comments)
	}
}
