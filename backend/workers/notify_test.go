package workers

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// The app's approval queue rings the desktop notification of the run
// whose bridge asked (Options.Notify): "Needs you · <title>", keyed so a
// click opens that run.
func TestApprovalOfARunRingsItsNotification(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rang := make(chan detect.Notification, 4)
	w, err := Open(context.Background(), Options{DB: db, Emitter: &recorder{}, Memory: memory{}, DataDir: dir,
		Env: agentcli.Env{Home: dir, Path: "/usr/bin:/bin"}, Notify: func(n detect.Notification) { rang <- n }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	// A recorded agent run (what pipeline.RunAgent writes when it starts).
	if _, err := db.Exec(`INSERT INTO pipeline_runs(id, title, model, role, state, started_at) VALUES('r9', 'Release helper', 'cli:claude:agent', 'Worker', 'running', 1)`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Approvals.RequestApproval(ctx, tools.ApprovalRequest{Tool: "runtime_send", Source: "bridge:r9", Args: json.RawMessage(`{}`)}) //nolint:errcheck // ends with the test
	select {
	case n := <-rang:
		if n.Title != "Needs you · Release helper" || n.Session != "run:r9" {
			t.Fatalf("notification = %+v", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no notification for the run waiting for an approval")
	}
}

// A chat whose answer ends in a question moves to Needs you, and that
// rings like a pane that waits for the person: "Needs you · <title>",
// keyed so a click opens the chat. An answer that asks nothing rings
// nothing.
func TestChatAnswerThatAsksRingsItsNotification(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rang := make(chan detect.Notification, 4)
	w, err := Open(context.Background(), Options{DB: db, Emitter: &recorder{}, Memory: memory{}, DataDir: dir,
		Env: agentcli.Env{Home: dir, Path: "/usr/bin:/bin"}, Notify: func(n detect.Notification) { rang <- n }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	// Two chats whose runs ended, as pipeline records them before the
	// end event goes out.
	for _, c := range []struct{ chat, run, title, answer string }{
		{"c1", "r1", "Pick a database", "Both work here.\n\nShould I use **SQLite or PostgreSQL?**"},
		{"c2", "r2", "Rename the helper", "Renamed it and ran the tests."},
	} {
		if _, err := db.Exec(`INSERT INTO pipeline_chats(id, title, created_at, updated_at) VALUES(?, ?, 1, 1)`, c.chat, c.title); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO pipeline_runs(id, chat_id, title, model, role, state, started_at) VALUES(?, ?, ?, 'cli:claude:agent', 'Worker', 'done', 1)`, c.run, c.chat, c.title); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO pipeline_messages(chat_id, role, text, run_id, created_at) VALUES(?, 'assistant', ?, ?, 2)`, c.chat, c.answer, c.run); err != nil {
			t.Fatal(err)
		}
	}
	tee := progressTee{nil, w}
	tee.Emit(runs.EventRun, runs.RunEvent{RunID: "r2", ChatID: "c2", Kind: "end", State: runs.StateDone})
	tee.Emit(runs.EventRun, runs.RunEvent{RunID: "r1", ChatID: "c1", Kind: "end", State: runs.StateDone})
	select {
	case n := <-rang:
		if n.Title != "Needs you · Pick a database" || n.Session != "chat:c1" || n.Body != "Claude Code is waiting for your decision." {
			t.Fatalf("notification = %+v", n)
		}
	default:
		t.Fatal("no notification for the chat whose answer asks a question")
	}
	select {
	case n := <-rang:
		t.Fatalf("a second notification: %+v", n)
	default:
	}
}
