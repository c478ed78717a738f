//go:build !windows

package chat

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
)

// crashClaude is a claude that changes a file in its working folder,
// reports a step and some answer text, then works until it is killed.
const crashClaude = `#!/bin/sh
if [ "$1" = "--version" ]; then echo '2.1.328 (Claude Code)'; exit 0; fi
echo $$ > "$FAKE_DIR/pid"
echo 'half done' > wip.txt
echo '{"type":"system","subtype":"init","session_id":"sess-crash"}'
echo '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"wip.txt"}}]},"parent_tool_use_id":null}'
echo '{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"Partial answer so far"}},"parent_tool_use_id":null}'
exec sleep 300
`

const crashEnv = "OSF_PIPELINE_CRASH_DIR"

// crashRig is the runner and database both the killed app and the
// restarted one use.
func crashRig(t testing.TB, dir string) (*agentcli.Runner, string) {
	bin := filepath.Join(dir, "bin")
	runner := agentcli.NewRunner(agentcli.RunnerOptions{WorktreeDir: filepath.Join(dir, "worktrees"),
		Env: agentcli.Env{Home: dir, Path: bin, Environ: []string{"PATH=" + bin + ":/usr/bin:/bin", "FAKE_DIR=" + dir}}})
	return runner, filepath.Join(dir, "app.db")
}

// lineEmitter prints each streamed piece of answer text, so the parent
// knows the run is under way before it kills this process.
type lineEmitter struct{}

func (lineEmitter) Emit(name string, payload any) {
	if ev, ok := payload.(runs.RunEvent); ok && ev.Kind == agentcli.KindPartial {
		fmt.Println("partial", ev.RunID)
	}
}

// TestCrashHelperProcess is the app killed mid-run: it starts a worktree
// run in a chat and keeps running until SIGKILL.
func TestCrashHelperProcess(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	runner, path := crashRig(t, dir)
	db, err := store.Open(path)
	must(t, err)
	ctx := context.Background()
	svc, err := New(ctx, Options{DB: db, Runner: runner, Emitter: lineEmitter{}})
	must(t, err)
	_, err = svc.Roles().SetRoleModel(ctx, "Worker", "cli:claude:agent")
	must(t, err)
	_, err = svc.Roles().AddFolder(ctx, filepath.Join(dir, "repo"))
	must(t, err)
	c, err := svc.CreateChat(ctx, NewChat{Title: "Change wip", Worktree: true})
	must(t, err)
	if _, err := svc.Send(ctx, c.ID, "Change wip.txt"); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	time.Sleep(time.Minute) // until the parent kills us
	os.Exit(1)
}

// TestWorktreeRunSurvivesSIGKILL kills the app in the middle of a worker run
// in a git worktree. After a restart the run reads as interrupted with the
// answer text and steps it had produced, its chat says so, and the changes
// it left in its worktree are kept on its branch, offered to keep or
// discard like any finished run's.
func TestWorktreeRunSurvivesSIGKILL(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "claude"), []byte(crashClaude), 0o755))
	repo := filepath.Join(dir, "repo")
	must(t, os.MkdirAll(repo, 0o755))
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "start")
	t.Cleanup(func() { // the fake CLI outlives the killed app
		if b, err := os.ReadFile(filepath.Join(dir, "pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})

	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelperProcess$")
	cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(out)
	runID := ""
	for runID == "" && lines.Scan() {
		if id, ok := strings.CutPrefix(lines.Text(), "partial "); ok {
			runID = id
		} else if strings.HasPrefix(lines.Text(), "error") {
			t.Fatalf("the app could not start the run: %s", lines.Text())
		}
	}
	if runID == "" {
		t.Fatal("the app ended before the run streamed any text")
	}
	must(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait()
	// The CLI dies with the app: an agent left working in the worktree
	// would race the restart that keeps its changes (and spend the
	// person's subscription with nobody watching). Linux only: macOS has
	// no parent-death signal.
	if pid := fakePID(t, dir); runtime.GOOS == "linux" && !gone(pid, 5*time.Second) {
		t.Errorf("the run's CLI (pid %d) is still running after the app was killed", pid)
	}

	runner, path := crashRig(t, dir)
	db, err := store.Open(path)
	must(t, err)
	t.Cleanup(func() { db.Close() })
	svc, err := New(context.Background(), Options{DB: db, Runner: runner})
	must(t, err)
	t.Cleanup(func() { svc.Close() })
	r, err := svc.GetRun(context.Background(), runID)
	must(t, err)
	if r.State != runs.StateFailed || !strings.Contains(r.Error, "Interrupted") {
		t.Errorf("after restart the run is %s (%q), want failed and saying it was interrupted", r.State, r.Error)
	}
	if !strings.Contains(r.Text, "Partial answer so far") {
		t.Errorf("the answer text streamed before the kill is lost: %q", r.Text)
	}
	if !strings.Contains(strings.Join(r.Progress, "\n"), "wip.txt") {
		t.Errorf("the steps reported before the kill are lost: %q", r.Progress)
	}
	branch := agentcli.BranchPrefix + runID
	if r.Branch != branch || !strings.Contains(r.DiffStat, "wip.txt") || !strings.Contains(r.Diff, "+half done") {
		t.Errorf("the run's changes are not offered: branch %q, stat %q, diff %q", r.Branch, r.DiffStat, r.Diff)
	}
	if got := git(t, repo, "show", branch+":wip.txt"); got != "half done\n" {
		t.Errorf("branch %s holds wip.txt = %q", branch, got)
	}
	if _, err := os.Stat(filepath.Join(dir, "worktrees", runID)); !os.IsNotExist(err) {
		t.Errorf("the killed run's worktree folder is still there: %v", err)
	}
	if wl := git(t, repo, "worktree", "list"); strings.Contains(wl, runID) {
		t.Errorf("git still lists the killed run's worktree:\n%s", wl)
	}
	d, err := svc.GetChat(context.Background(), r.ChatID)
	must(t, err)
	said := false
	for _, m := range d.Messages {
		said = said || (m.RunID == runID && m.Role == "error" && strings.Contains(m.Text, "Interrupted"))
	}
	if !said {
		t.Errorf("the chat does not say its run was interrupted: %+v", d.Messages)
	}
	must(t, svc.DiscardBranch(context.Background(), runID))
	if out := git(t, repo, "branch", "--list", branch); strings.TrimSpace(out) != "" {
		t.Errorf("Discard left the branch: %q", out)
	}
}

func fakePID(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	must(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	must(t, err)
	return pid
}

// gone waits until process pid has ended (a zombie nobody reaped has).
func gone(pid int, within time.Duration) bool {
	for end := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			if syscall.Kill(pid, 0) != nil {
				return true
			}
		} else if f := strings.Fields(string(st)); len(f) > 2 && f[2] == "Z" {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// partialSeen reports each streamed piece of text on a channel.
type partialSeen chan string

func (p partialSeen) Emit(name string, payload any) {
	if ev, ok := payload.(runs.RunEvent); ok && ev.Kind == agentcli.KindPartial {
		select {
		case p <- ev.RunID:
		default:
		}
	}
}

// TestCancelledRunKeepsItsOutput: a run the person cancels keeps the text
// it had streamed, like one the app was killed in.
func TestCancelledRunKeepsItsOutput(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "claude"), []byte(crashClaude), 0o755))
	repo := filepath.Join(dir, "repo")
	must(t, os.MkdirAll(repo, 0o755))
	runner, path := crashRig(t, dir)
	db, err := store.Open(path)
	must(t, err)
	t.Cleanup(func() { db.Close() })
	seen := make(partialSeen, 1)
	ctx := context.Background()
	svc, err := New(ctx, Options{DB: db, Runner: runner, Emitter: seen})
	must(t, err)
	t.Cleanup(func() { svc.Close() })
	_, err = svc.Roles().SetRoleModel(ctx, "Worker", "cli:claude:agent")
	must(t, err)
	_, err = svc.Roles().AddFolder(ctx, repo)
	must(t, err)
	c, err := svc.CreateChat(ctx, NewChat{Title: "Change wip"})
	must(t, err)
	run, err := svc.Send(ctx, c.ID, "Change wip.txt")
	must(t, err)
	select {
	case <-seen:
	case <-time.After(30 * time.Second):
		t.Fatal("the run streamed no text")
	}
	must(t, svc.Cancel(run.ID))
	r, err := svc.GetRun(ctx, run.ID)
	must(t, err)
	if r.State != runs.StateFailed || !strings.Contains(r.Text, "Partial answer so far") {
		t.Errorf("cancelled run: %s with text %q, want the text it had streamed kept", r.State, r.Text)
	}
}
