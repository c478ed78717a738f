//go:build !windows

package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/runs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// The Code screen's isolation with the real Claude Code against the fake
// model: with "Enable for this workspace" on, a plain chat's Worker run
// writes a file with its shell on a new branch in its own worktree of the
// workspace's repository; the user's checkout (branch, files, worktree
// list) is untouched and the Code screen lists the run with the file.
func TestLiveWorkspaceIsolationWithClaude(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	srv.Push(
		fakemodel.ClaudeBash("printf 'Ship on Friday.\\n' > NOTES.md", "Write the notes"),
		fakemodel.Text("Wrote NOTES.md."),
	)
	git(t, e.Work, "init", "-q", "-b", "main")
	must(t, os.WriteFile(filepath.Join(e.Work, "README.md"), []byte("# Site\n"), 0o644))
	git(t, e.Work, "add", "README.md")
	git(t, e.Work, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "start")
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	must(t, err)
	defer db.Close()
	runner := agentcli.NewRunner(agentcli.RunnerOptions{WorktreeDir: filepath.Join(t.TempDir(), "worktrees"),
		Env: agentcli.Env{Home: e.Home, Environ: e.Env, Path: strings.TrimPrefix(e.Env[0], "PATH=")}})
	svc, err := New(context.Background(), Options{DB: db, Runner: runner})
	must(t, err)
	defer svc.Close()
	ctx := context.Background()
	_, err = svc.Roles().SetRoleModel(ctx, "Worker", agentcli.ModelClaudeAgent)
	must(t, err)
	_, err = svc.Roles().AddFolder(ctx, e.Work)
	must(t, err)
	_, err = svc.Code().SetRepo(ctx, "", e.Work)
	must(t, err)
	_, err = svc.Code().SetEnabled(ctx, "", true)
	must(t, err)
	c, err := svc.CreateChat(ctx, NewChat{Title: "Notes"})
	must(t, err)
	run, err := svc.Send(ctx, c.ID, "write the release notes")
	must(t, err)
	svc.Wait(run.ID)
	got, err := svc.GetRun(ctx, run.ID)
	must(t, err)
	branch := agentcli.BranchPrefix + run.ID
	if got.State != runs.StateDone || got.Branch != branch {
		t.Fatalf("run %s branch %q error %q progress %q", got.State, got.Branch, got.Error, got.Progress)
	}
	if out := git(t, e.Work, "show", branch+":NOTES.md"); out != "Ship on Friday.\n" {
		t.Errorf("branch holds NOTES.md = %q", out)
	}
	if _, err := os.Stat(filepath.Join(e.Work, "NOTES.md")); !os.IsNotExist(err) {
		t.Errorf("the run wrote into the user's checkout (%v)", err)
	}
	if b := strings.TrimSpace(git(t, e.Work, "rev-parse", "--abbrev-ref", "HEAD")); b != "main" {
		t.Errorf("the checkout moved to %q", b)
	}
	if st := git(t, e.Work, "status", "--porcelain"); st != "" {
		t.Errorf("the checkout has changes:\n%s", st)
	}
	if wl := git(t, e.Work, "worktree", "list"); strings.Count(wl, "\n") != 1 {
		t.Errorf("worktrees left behind:\n%s", wl)
	}
	coded, err := svc.Code().Runs(ctx, "")
	must(t, err)
	if len(coded) != 1 || len(coded[0].Files) != 1 || coded[0].Files[0].Path != "NOTES.md" || coded[0].Files[0].Status != "added" {
		t.Fatalf("Code runs = %+v", coded)
	}
}
