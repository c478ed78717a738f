package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/appdir"
)

// TestApproveChangeSetSaysWhatHappened: `connections approve` of a change
// set says which branch it committed on, or fails with why it did not
// apply (not a bare "pending").
func TestApproveChangeSetSaysWhatHappened(t *testing.T) {
	t.Setenv(appdir.EnvHome, t.TempDir())
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"-c", "user.name=Me", "-c", "user.email=me@x", "commit", "-q", "-m", "start"}} {
		if args[0] == "add" {
			if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("one\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	code, out, errs := runCLI(t, "connections", "add", "Claude", "Claude chat")
	if code != 0 {
		t.Fatalf("add: %s %s", out, errs)
	}
	conn := strings.Fields(out)[0]
	db, _, err := openAppDB()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	add := func(id string, change any) {
		b, _ := json.Marshal(change)
		if _, err := db.Exec(`INSERT INTO connect_proposals (id, connection_id, kind, project, target, title, files, details, status, created_at, change_set)
			VALUES (?, ?, 'change_set', 'proj-a', ?, 'T', '["a.txt"]', '', 'pending', 1, ?)`, id, conn, repo, string(b)); err != nil {
			t.Fatal(err)
		}
	}
	add("prop_stale", map[string]any{"changes": []any{}, "patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-zero\n+two\n"})
	add("prop_good", map[string]any{"changes": []any{map[string]any{"path": "a.txt", "before": "one\n", "after": "two\n"}}})
	if code, out, errs := runCLI(t, "connections", "approve", "prop_stale"); code == 0 || !strings.Contains(errs, "no longer applies") {
		t.Fatalf("stale: %d %q %q", code, out, errs)
	}
	if code, out, errs := runCLI(t, "connections", "approve", "prop_good"); code != 0 || !strings.Contains(out, "prop_good approved: committed on branch osfoundry/proposal-prop_good") {
		t.Fatalf("good: %d %q %q", code, out, errs)
	}
}
