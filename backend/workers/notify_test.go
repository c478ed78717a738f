package workers

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/detect"
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
