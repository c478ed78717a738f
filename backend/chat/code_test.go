//go:build !windows

package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/runs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/code"
	notesstore "github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// writerClaude is a claude that writes CHANGED.txt in its working folder
// and answers.
const writerClaude = `#!/bin/sh
if [ "$1" = "--version" ]; then echo '2.1.328 (Claude Code)'; exit 0; fi
pwd > "$FAKE_DIR/last-cwd"
echo 'from the run' > CHANGED.txt
echo '{"type":"system","subtype":"init","session_id":"sess-w"}'
echo '{"type":"result","subtype":"success","is_error":false,"result":"Wrote CHANGED.txt.","session_id":"sess-w"}'
`

type codeRig struct {
	svc  *Service
	dir  string
	repo string // a git repository with one commit on main
	ctx  context.Context
}

func newCodeRig(t *testing.T) *codeRig {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "claude"), []byte(writerClaude), 0o755))
	repo := filepath.Join(dir, "repo")
	must(t, os.MkdirAll(repo, 0o755))
	git(t, repo, "init", "-q", "-b", "main")
	must(t, os.WriteFile(filepath.Join(repo, "README.md"), []byte("# App\n"), 0o644))
	git(t, repo, "add", "README.md")
	git(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "start")
	db, err := store.Open(filepath.Join(dir, "app.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	runner := agentcli.NewRunner(agentcli.RunnerOptions{WorktreeDir: filepath.Join(dir, "worktrees"),
		Env: agentcli.Env{Home: dir, Path: bin, Environ: []string{"PATH=" + bin + ":/usr/bin:/bin", "FAKE_DIR=" + dir}}})
	svc, err := New(context.Background(), Options{DB: db, Runner: runner})
	must(t, err)
	t.Cleanup(func() { svc.Close() })
	r := &codeRig{svc: svc, dir: dir, repo: repo, ctx: context.Background()}
	_, err = svc.Roles().SetRoleModel(r.ctx, "Worker", agentcli.ModelClaudeAgent)
	must(t, err)
	return r
}

func (r *codeRig) folder(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(r.dir, name)
	must(t, os.MkdirAll(p, 0o755))
	return p
}

func (r *codeRig) send(t *testing.T, chatID, task string) runs.Run {
	t.Helper()
	run, err := r.svc.Send(r.ctx, chatID, task)
	must(t, err)
	r.svc.Wait(run.ID)
	got, err := r.svc.GetRun(r.ctx, run.ID)
	must(t, err)
	if got.State != runs.StateDone {
		t.Fatalf("run %s is %s: %s", got.ID, got.State, got.Error)
	}
	return got
}

func (r *codeRig) untouched(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(r.repo, "CHANGED.txt")); !os.IsNotExist(err) {
		t.Errorf("the run wrote into the user's checkout (%v)", err)
	}
	if b := strings.TrimSpace(git(t, r.repo, "rev-parse", "--abbrev-ref", "HEAD")); b != "main" {
		t.Errorf("the checkout is on %q, want main", b)
	}
	if st := git(t, r.repo, "status", "--porcelain"); st != "" {
		t.Errorf("the checkout has changes:\n%s", st)
	}
	if wl := git(t, r.repo, "worktree", "list"); strings.Count(wl, "\n") != 1 {
		t.Errorf("worktrees left behind:\n%s", wl)
	}
}

func TestDefaultWorkspaceIsTheNotesOne(t *testing.T) {
	if code.DefaultWorkspace != notesstore.DefaultWorkspace {
		t.Fatalf("pipeline.DefaultWorkspace %q, notesstore.DefaultWorkspace %q", code.DefaultWorkspace, notesstore.DefaultWorkspace)
	}
}

// A folder that is not a git repository cannot be the workspace's
// repository, and isolation cannot be turned on over it.
func TestCodeRepoRefusesAFolderOutsideGit(t *testing.T) {
	r := newCodeRig(t)
	plain := r.folder(t, "plain")
	_, err := r.svc.Roles().AddFolder(r.ctx, plain)
	must(t, err)
	if _, err := r.svc.Code().SetRepo(r.ctx, "", plain); err == nil || !strings.Contains(err.Error(), plain+" is not a git repository: run `git init` there") {
		t.Errorf("picking a plain folder: %v", err)
	}
	if _, err := r.svc.Code().SetRepo(r.ctx, "", r.repo); err == nil || !strings.Contains(err.Error(), "is not one of your Local Folders") {
		t.Errorf("picking a folder that is not a Local Folder: %v", err)
	}
	cs, err := r.svc.Code().Settings(r.ctx, "")
	must(t, err)
	if cs.Uses != plain || cs.UsesFrom != "first-folder" || len(cs.Folders) != 1 || cs.Folders[0].Git || cs.Problem == "" {
		t.Errorf("settings = %+v", cs)
	}
	if _, err := r.svc.Code().SetEnabled(r.ctx, "", true); err == nil || !strings.Contains(err.Error(), "is not a git repository") {
		t.Errorf("turning isolation on over a plain folder: %v", err)
	}
}

// With isolation on, a chat's Claude run (no checkbox) works on its own
// branch in a worktree of the workspace's repository, even when another
// Local Folder was added later; the user's checkout is untouched, and the
// Code screen lists the run with its file. Keep leaves the branch;
// Discard removes it and the run from the list.
func TestWorkspaceIsolationGivesEveryWritingRunABranch(t *testing.T) {
	r := newCodeRig(t)
	_, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	other := r.folder(t, "other")
	_, err = r.svc.Roles().AddFolder(r.ctx, other) // now the current Local Folder
	must(t, err)
	_, err = r.svc.Code().SetRepo(r.ctx, "", r.repo)
	must(t, err)
	cs, err := r.svc.Code().SetEnabled(r.ctx, "", true)
	must(t, err)
	if !cs.Enabled || cs.Uses != r.repo || cs.UsesFrom != "code" || cs.Problem != "" {
		t.Fatalf("settings = %+v", cs)
	}
	c, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Change"})
	must(t, err)
	run := r.send(t, c.ID, "write CHANGED.txt")
	branch := agentcli.BranchPrefix + run.ID
	if run.Branch != branch || run.Folder != r.repo || !strings.Contains(run.Diff, "+from the run") {
		t.Fatalf("run branch %q folder %q diff %q", run.Branch, run.Folder, run.Diff)
	}
	if got := git(t, r.repo, "show", branch+":CHANGED.txt"); got != "from the run\n" {
		t.Errorf("branch holds CHANGED.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(other, "CHANGED.txt")); !os.IsNotExist(err) {
		t.Error("the run wrote into the current Local Folder instead of the repository")
	}
	r.untouched(t)

	coded, err := r.svc.Code().Runs(r.ctx, "")
	must(t, err)
	if len(coded) != 1 || coded[0].ID != run.ID || coded[0].Branch != branch || len(coded[0].Files) != 1 ||
		coded[0].Files[0].Path != "CHANGED.txt" || coded[0].Files[0].Status != "added" || coded[0].Files[0].Added != 1 {
		t.Fatalf("Code runs = %+v", coded)
	}
	kept, err := r.svc.Code().Keep(r.ctx, run.ID)
	must(t, err)
	if kept.Decision != code.DecisionKept || strings.TrimSpace(git(t, r.repo, "branch", "--list", branch)) == "" {
		t.Errorf("Keep: decision %q, branches %q", kept.Decision, git(t, r.repo, "branch", "--list"))
	}
	must(t, r.svc.Code().Discard(r.ctx, run.ID))
	if out := git(t, r.repo, "branch", "--list", branch); strings.TrimSpace(out) != "" {
		t.Errorf("Discard left the branch: %q", out)
	}
	if coded, _ := r.svc.Code().Runs(r.ctx, ""); len(coded) != 0 {
		t.Errorf("a discarded run is still listed: %+v", coded)
	}
	r.untouched(t)
}

// Without a repository picked, isolated runs use the first Local Folder
// (the one runs use), and the settings say so.
func TestIsolationUsesTheFirstLocalFolderWhenNoneIsPicked(t *testing.T) {
	r := newCodeRig(t)
	_, err := r.svc.Roles().AddFolder(r.ctx, r.folder(t, "older"))
	must(t, err)
	_, err = r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	cs, err := r.svc.Code().SetEnabled(r.ctx, "", true)
	must(t, err)
	if cs.Uses != r.repo || cs.UsesFrom != "first-folder" {
		t.Fatalf("settings = %+v", cs)
	}
	c, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Change"})
	must(t, err)
	if run := r.send(t, c.ID, "write CHANGED.txt"); run.Branch != agentcli.BranchPrefix+run.ID {
		t.Fatalf("run branch %q", run.Branch)
	}
	r.untouched(t)
}

// A chat turned off works in the folder itself even with isolation on; a
// chat turned on gets a branch with isolation off.
func TestChatOverridesTheWorkspace(t *testing.T) {
	r := newCodeRig(t)
	_, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	_, err = r.svc.Code().SetEnabled(r.ctx, "", true)
	must(t, err)
	off, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Direct"})
	must(t, err)
	must(t, r.svc.Code().SetChatIsolation(r.ctx, off.ID, code.IsolationOff))
	if run := r.send(t, off.ID, "write CHANGED.txt"); run.Branch != "" {
		t.Errorf("a chat turned off got branch %q", run.Branch)
	}
	if _, err := os.Stat(filepath.Join(r.repo, "CHANGED.txt")); err != nil {
		t.Errorf("a chat turned off did not work in the folder: %v", err)
	}
	must(t, os.Remove(filepath.Join(r.repo, "CHANGED.txt")))

	_, err = r.svc.Code().SetEnabled(r.ctx, "", false)
	must(t, err)
	on, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Isolated"})
	must(t, err)
	must(t, r.svc.Code().SetChatIsolation(r.ctx, on.ID, code.IsolationOn))
	if run := r.send(t, on.ID, "write CHANGED.txt"); run.Branch != agentcli.BranchPrefix+run.ID {
		t.Errorf("a chat turned on got branch %q", run.Branch)
	}
	r.untouched(t)
	if err := r.svc.Code().SetChatIsolation(r.ctx, on.ID, "sometimes"); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

// A run still going cannot be kept or discarded.
func TestKeepRefusesARunStillGoing(t *testing.T) {
	r := newCodeRig(t)
	must(t, os.WriteFile(filepath.Join(r.dir, "bin", "claude"), []byte(crashClaude), 0o755))
	_, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	_, err = r.svc.Code().SetEnabled(r.ctx, "", true)
	must(t, err)
	c, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Long"})
	must(t, err)
	run, err := r.svc.Send(r.ctx, c.ID, "work long")
	must(t, err)
	defer r.svc.Cancel(run.ID) //nolint:errcheck // ends the sleeping fake
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if coded, _ := r.svc.Code().Runs(r.ctx, ""); len(coded) == 1 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := r.svc.Code().Discard(r.ctx, run.ID); err == nil || !strings.Contains(err.Error(), "still going") {
		t.Errorf("discarding a running run: %v", err)
	}
}

// A chat isolated on its own (the checkbox, or turned on) works in the
// repository picked on the Code screen, not in a later Local Folder, and
// the workspace's switch is not needed for it.
func TestChatTurnedOnUsesTheCodeRepository(t *testing.T) {
	r := newCodeRig(t)
	_, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	other := r.folder(t, "other")
	_, err = r.svc.Roles().AddFolder(r.ctx, other)
	must(t, err)
	_, err = r.svc.Code().SetRepo(r.ctx, "", r.repo)
	must(t, err)
	c, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Checkbox", Worktree: true})
	must(t, err)
	if run := r.send(t, c.ID, "write CHANGED.txt"); run.Folder != r.repo || run.Branch != agentcli.BranchPrefix+run.ID {
		t.Errorf("a checkbox chat ran in %q on branch %q, want %q on its own branch", run.Folder, run.Branch, r.repo)
	}
	on, err := r.svc.CreateChat(r.ctx, NewChat{Title: "On"})
	must(t, err)
	must(t, r.svc.Code().SetChatIsolation(r.ctx, on.ID, code.IsolationOn))
	if run := r.send(t, on.ID, "write CHANGED.txt"); run.Folder != r.repo || run.Branch != agentcli.BranchPrefix+run.ID {
		t.Errorf("a chat turned on ran in %q on branch %q, want %q on its own branch", run.Folder, run.Branch, r.repo)
	}
	r.untouched(t)
}

// fakeCodex answers the flag probe and, as a run, writes CHANGED.txt in
// its working folder and answers.
const fakeCodex = `#!/bin/sh
if [ "$1" = "--version" ]; then echo 'codex-cli 0.169.0'; exit 0; fi
for a in "$@"; do if [ "$a" = "--help" ]; then echo '      --ignore-rules  Do not load rules files'; exit 0; fi; done
printf '%s\n' "$@" > "$FAKE_DIR/codex-argv"
echo 'from codex' > CHANGED.txt
echo '{"type":"thread.started","thread_id":"th-1"}'
echo '{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"Done."}}'
echo '{"type":"turn.completed","usage":{"input_tokens":3,"cached_input_tokens":0,"output_tokens":1}}'
`

// With isolation on, a Codex run works on its own branch in the
// workspace's repository (-C <its worktree>), not in a later Local
// Folder.
func TestWorkspaceIsolationGivesCodexRunsABranch(t *testing.T) {
	r := newCodeRig(t)
	must(t, os.WriteFile(filepath.Join(r.dir, "bin", "codex"), []byte(fakeCodex), 0o755))
	_, err := r.svc.Roles().SetRoleModel(r.ctx, "Worker", agentcli.ModelCodexAgent)
	must(t, err)
	_, err = r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	other := r.folder(t, "other")
	_, err = r.svc.Roles().AddFolder(r.ctx, other)
	must(t, err)
	_, err = r.svc.Code().SetRepo(r.ctx, "", r.repo)
	must(t, err)
	_, err = r.svc.Code().SetEnabled(r.ctx, "", true)
	must(t, err)
	c, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Codex"})
	must(t, err)
	run := r.send(t, c.ID, "write CHANGED.txt")
	if run.Folder != r.repo || run.Branch != agentcli.BranchPrefix+run.ID || !strings.Contains(run.Diff, "+from codex") {
		t.Fatalf("Codex ran in %q on branch %q, diff %q", run.Folder, run.Branch, run.Diff)
	}
	b, err := os.ReadFile(filepath.Join(r.dir, "codex-argv"))
	must(t, err)
	if argv := string(b); !strings.Contains(argv, "-C\n"+filepath.Join(r.dir, "worktrees", run.ID)+"\n") {
		t.Errorf("Codex argv (want -C <the run's worktree>):\n%s", argv)
	}
	if _, err := os.Stat(filepath.Join(other, "CHANGED.txt")); !os.IsNotExist(err) {
		t.Error("Codex wrote into the current Local Folder")
	}
	r.untouched(t)
}

// Keep on a run whose worktree was left behind finishes it the way crash
// recovery does: what it held is committed to the branch, which stays,
// and the worktree goes.
func TestKeepFinishesAWorktreeLeftBehind(t *testing.T) {
	r := newCodeRig(t)
	_, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	id, branch := "left1", agentcli.BranchPrefix+"left1"
	dir := filepath.Join(r.dir, "worktrees", id)
	base := strings.TrimSpace(git(t, r.repo, "rev-parse", "HEAD"))
	git(t, r.repo, "worktree", "add", "-q", "-b", branch, dir, base)
	must(t, os.WriteFile(filepath.Join(dir, "half.txt"), []byte("half done\n"), 0o644))
	wt := `{"repo":"` + r.repo + `","dir":"` + dir + `","branch":"` + branch + `","base":"` + base + `"}`
	_, err = r.svc.db.Exec(`INSERT INTO pipeline_runs(id, title, model, role, folder, state, error, worktree, repo, started_at) VALUES(?,?,?,?,?,?,?,?,?,?)`,
		id, "Left", agentcli.ModelClaudeAgent, "Worker", r.repo, runs.StateFailed, "stopped", wt, r.repo, 1)
	must(t, err)
	must(t, r.svc.Code().RecordIsolated(r.ctx, id, ""))
	kept, err := r.svc.Code().Keep(r.ctx, id)
	must(t, err)
	if kept.Decision != code.DecisionKept || kept.Branch != branch || len(kept.Files) != 1 || kept.Files[0].Path != "half.txt" {
		t.Fatalf("kept = %+v", kept)
	}
	if got := git(t, r.repo, "show", branch+":half.txt"); got != "half done\n" {
		t.Errorf("branch holds half.txt = %q", got)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the worktree folder is still there (%v)", err)
	}
	r.untouched(t)
}

// A branch discarded from the chat ("Discard branch") leaves the Code
// screen's list too, rather than reading as a run that changed nothing.
func TestBranchDiscardedInTheChatLeavesTheList(t *testing.T) {
	r := newCodeRig(t)
	_, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	_, err = r.svc.Code().SetEnabled(r.ctx, "", true)
	must(t, err)
	c, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Change"})
	must(t, err)
	run := r.send(t, c.ID, "write CHANGED.txt")
	must(t, r.svc.DiscardBranch(r.ctx, run.ID))
	if coded, _ := r.svc.Code().Runs(r.ctx, ""); len(coded) != 0 {
		t.Errorf("a run whose branch was discarded in the chat is still listed: %+v", coded)
	}
}

// A repository removed from the Local Folders is not worked in any more:
// the settings say so and a run is refused with what to do.
func TestRemovedRepositoryIsNotUsed(t *testing.T) {
	r := newCodeRig(t)
	f, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	_, err = r.svc.Roles().AddFolder(r.ctx, r.folder(t, "other"))
	must(t, err)
	_, err = r.svc.Code().SetRepo(r.ctx, "", r.repo)
	must(t, err)
	_, err = r.svc.Code().SetEnabled(r.ctx, "", true)
	must(t, err)
	must(t, r.svc.Roles().RemoveFolder(r.ctx, f.ID))
	want := r.repo + " is no longer one of your Local Folders"
	cs, err := r.svc.Code().Settings(r.ctx, "")
	must(t, err)
	if !strings.Contains(cs.Problem, want) {
		t.Errorf("problem = %q", cs.Problem)
	}
	c, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Change"})
	must(t, err)
	if _, err := r.svc.Send(r.ctx, c.ID, "write CHANGED.txt"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a run in a removed repository: %v", err)
	}
	r.untouched(t)
}

// An open chat reads its isolation: its own choice, the workspace's
// switch, and whether its next writing run gets a branch; following the
// workspace again also drops the older checkbox.
func TestChatIsolationReadsWhatTheNextRunGets(t *testing.T) {
	r := newCodeRig(t)
	_, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	c, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Checkbox", Worktree: true})
	must(t, err)
	for _, step := range []struct {
		name      string
		mode      string // "-" keeps the chat's choice
		workspace bool
		want      code.ChatIsolationState
	}{
		{"checkbox", "-", false, code.ChatIsolationState{Mode: code.IsolationOn, Effective: true}},
		{"follow, off", code.IsolationWorkspace, false, code.ChatIsolationState{}},
		{"follow, on", code.IsolationWorkspace, true, code.ChatIsolationState{Workspace: true, Effective: true}},
		{"off over on", code.IsolationOff, true, code.ChatIsolationState{Mode: code.IsolationOff, Workspace: true}},
	} {
		if step.mode != "-" {
			must(t, r.svc.Code().SetChatIsolation(r.ctx, c.ID, step.mode))
		}
		_, err := r.svc.Code().SetEnabled(r.ctx, "", step.workspace)
		must(t, err)
		got, err := r.svc.Code().ChatIsolation(r.ctx, c.ID)
		must(t, err)
		if got != step.want {
			t.Errorf("%s: %+v, want %+v", step.name, got, step.want)
		}
	}
	if _, err := r.svc.Code().ChatIsolation(r.ctx, "chat-none"); err == nil {
		t.Error("an unknown chat has an isolation")
	}
}

// Started from a menu the window has no PATH (as under `env -i`); the
// runner's environment has the login shell's. The Code screen, a worktree
// run and Discard find git there instead of calling the repository "not a
// git repository".
func TestCodeFindsGitWithoutTheWindowsPATH(t *testing.T) {
	r := newCodeRig(t)
	t.Setenv("PATH", "")
	_, err := r.svc.Roles().AddFolder(r.ctx, r.repo)
	must(t, err)
	cs, err := r.svc.Code().SetRepo(r.ctx, "", r.repo)
	if err != nil {
		t.Fatalf("picking the repository with no PATH of the window's own: %v", err)
	}
	if len(cs.Folders) != 1 || !cs.Folders[0].Git || cs.Problem != "" {
		t.Fatalf("settings = %+v", cs)
	}
	_, err = r.svc.Code().SetEnabled(r.ctx, "", true)
	must(t, err)
	chat, err := r.svc.CreateChat(r.ctx, NewChat{Title: "Change"})
	must(t, err)
	run := r.send(t, chat.ID, "change something")
	if !strings.HasPrefix(run.Branch, agentcli.BranchPrefix) {
		t.Fatalf("the run kept no branch: %+v", run)
	}
	must(t, r.svc.DiscardBranch(r.ctx, run.ID))
	t.Setenv("PATH", "/usr/bin:/bin")
	if out := git(t, r.repo, "branch", "--list", run.Branch); strings.TrimSpace(out) != "" {
		t.Errorf("the discarded branch is still there: %s", out)
	}
	r.untouched(t)
}
