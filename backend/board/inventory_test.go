package board

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/inventory"
)

// helpRunner answers `claude --help` with the flags the resume plan looks
// for, without running anything.
type helpRunner struct{}

func (helpRunner) Output(_ context.Context, _, name string, args ...string) ([]byte, error) {
	if name == "claude" && len(args) == 1 && args[0] == "--help" {
		return []byte("Usage: claude [options]\n  --resume <id>\n  --model <model>\n  --permission-mode <mode>\n"), nil
	}
	return nil, errors.New("not scripted")
}

func (helpRunner) LookPath(name string) (string, error) { return "", exec.ErrNotFound }

// Over a real Claude Code 2.1.328 store (recorded by make fixtures): the
// pane's folder finds the session Claude Code kept, and the plan is the
// External agents screen's own `claude --resume <id>` in that folder.
func TestStoreSessionsFindAndPlanAClaudeSession(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join("..", "testkit", "fixtures", "testdata", "stores", "claude-2.1.328", ".claude")
	if err := os.CopyFS(filepath.Join(home, ".claude"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	// The recording's folder must exist for a resume to be offered.
	folder := "/tmp/osf-fixtures/claude-2.1.328/work"
	if _, err := os.Stat(folder); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(folder, 0o700); err != nil {
			t.Skip("cannot create the recording's folder:", err)
		}
		t.Cleanup(func() {
			for d := folder; d != "/tmp"; d = filepath.Dir(d) {
				os.Remove(d) // only while empty: never another run's files
			}
		})
	}
	inv, err := inventory.New(context.Background(), nil, inventory.Options{Env: inventory.Env{Home: home, GOOS: "linux"}, Runner: helpRunner{}})
	if err != nil {
		t.Fatal(err)
	}
	display := func(a string) string {
		if a == "claude" {
			return "Claude Code"
		}
		return a
	}
	s := NewStoreSessions(inv, display)
	found, ok := s.Latest("claude", folder, time.Time{})
	if !ok || found.ID != "666ad556-d252-4000-9d31-0ac5584eaaab" {
		t.Fatalf("Latest = %+v, %v", found, ok)
	}
	if _, ok := s.Latest("claude", folder, time.Now().Add(time.Hour)); ok {
		t.Error("found a session last used before the pane started")
	}
	plan, err := s.Plan("claude", found.ID)
	if err != nil {
		t.Fatal(err)
	}
	cmd := plan.Command()
	if !strings.HasPrefix(cmd, "cd "+folder+" && claude --resume "+found.ID) {
		t.Errorf("resume command = %s", cmd)
	}
	if _, err := s.Plan("no-such-agent", found.ID); err == nil {
		t.Error("planned a resume for an agent no store knows")
	}
}
