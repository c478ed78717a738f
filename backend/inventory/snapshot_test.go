package inventory

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// TestStoreCommitsStillInTheLogAreListed keeps OpenCode's database open in
// WAL mode with checkpoints off, as a running OpenCode does: sessions that
// only reached the log are listed, a new commit re-reads the store, and the
// index writes nothing next to the app's files.
func TestStoreCommitsStillInTheLogAreListed(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".local", "share", "opencode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	app, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "opencode.db")+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	app.SetMaxOpenConns(1)
	for _, q := range []string{
		`PRAGMA wal_autocheckpoint=0`,
		`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, slug TEXT, directory TEXT, title TEXT, version TEXT, time_created INTEGER, time_updated INTEGER, time_archived INTEGER)`,
		`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)`,
		`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)`,
		`INSERT INTO session VALUES ('ses_1', 'p', NULL, 's', '/w/api', 'Fix the retry', '1.18.33', 1, 1796000000000, NULL)`,
	} {
		if _, err := app.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "opencode.db-wal")); err != nil || st.Size() == 0 {
		t.Fatalf("the test needs the commits in the log: %v", err)
	}
	svc := newTestService(t, home, nil, nil)
	defer svc.Close()
	refresh(t, svc)
	if got := titleOf(t, svc, "opencode:ses_1"); got != "Fix the retry" {
		t.Fatalf("title = %q", got)
	}
	before := fileSnapshot(t, dir)

	if _, err := app.Exec(`INSERT INTO session VALUES ('ses_2', 'p', NULL, 's', '/w/web', 'Second', '1.18.33', 2, 1796000001000, NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Exec(`INSERT INTO message VALUES ('m1', 'ses_2', 1, 1, '{"role":"user"}')`); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Exec(`INSERT INTO part VALUES ('p1', 'm1', 'ses_2', 1, 1, '{"type":"text","text":"hello from the log"}')`); err != nil {
		t.Fatal(err)
	}
	changed, err := svc.Refresh(context.Background())
	if err != nil || !changed {
		t.Fatalf("refresh after a commit in the log: changed=%v err=%v", changed, err)
	}
	find(t, svc, "opencode:ses_2")
	p, err := svc.Transcript(context.Background(), "opencode:ses_2", 0, 10)
	if err != nil || len(p.Rows) != 1 || p.Rows[0].Text != "hello from the log" {
		t.Fatalf("transcript = %+v, %v", p, err)
	}
	// Only the app's own writes changed its folder.
	after := fileSnapshot(t, dir)
	if len(after) != len(before) {
		t.Fatalf("files next to the store: %d before, %d after", len(before), len(after))
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Fatalf("%s appeared next to the store", p)
		}
	}
	svc.Close()
	if snapshots.dir != "" {
		t.Fatalf("snapshots left in %s after Close", snapshots.dir)
	}
}
