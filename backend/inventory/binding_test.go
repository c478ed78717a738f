package inventory

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
)

// fakeClaude is a `claude` on PATH that answers --help like Claude Code
// 2.1.328 and otherwise prints its folder and argv, one argument a line,
// then waits for input (so the pane stays open to be read).
const fakeClaude = `#!/bin/sh
if [ "$1" = "--help" ]; then
cat <<'EOF'
` + claudeHelp + `EOF
exit 0
fi
echo "fake-claude cwd=$(pwd)"
for a in "$@"; do echo "arg=$a"; done
read -r _
`

// gitRepo makes dir a git repository with one commit on branch.
func gitRepo(t *testing.T, dir, branch string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", branch},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"},
	} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func currentBranch(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--abbrev-ref", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// bindingFixture is a home with three Claude Code sessions (branch
// mismatch, permissive mode, missing folder), the real exec runner with a
// fake claude first on PATH, and a real terminal manager.
type bindingFixture struct {
	b      *Binding
	panes  *terminal.Manager
	repo   string
	mismID string
	permID string
	goneID string
}

func newBindingFixture(t *testing.T) *bindingFixture {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	bin := filepath.Join(root, "bin")
	write(t, filepath.Join(bin, "claude"), fakeClaude)
	if err := os.Chmod(filepath.Join(bin, "claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	repo := filepath.Join(root, "work", "shop-api")
	gitRepo(t, repo, "main")
	f := &bindingFixture{repo: repo,
		mismID: "0b6c6f1e-4d52-4f0e-9a3e-1f2d3c4b5a60",
		permID: "0b6c6f1e-4d52-4f0e-9a3e-1f2d3c4b5a61",
		goneID: "0b6c6f1e-4d52-4f0e-9a3e-1f2d3c4b5a62"}
	projects := filepath.Join(home, ".claude", "projects")
	esc := func(p string) string { return strings.NewReplacer("/", "-", ".", "-", "_", "-").Replace(p) }
	write(t, filepath.Join(projects, esc(repo), f.mismID+".jsonl"), claudeLines(f.mismID, repo, "fix/checkout-retry", "Why does a retry charge twice?"))
	write(t, filepath.Join(projects, esc(repo), f.permID+".jsonl"), claudeLines(f.permID, repo, "main", "Ship it",
		m{"type": "user", "cwd": repo, "sessionId": f.permID, "gitBranch": "main", "permissionMode": "bypassPermissions",
			"message": m{"role": "user", "content": "go on"}, "timestamp": "2026-11-04T10:05:00.000Z"}))
	gone := filepath.Join(root, "work", "deleted-project")
	write(t, filepath.Join(projects, esc(gone), f.goneID+".jsonl"), claudeLines(f.goneID, gone, "main", "Old work"))
	svc, err := New(t.Context(), nil, Options{Env: Env{Home: home, GOOS: "linux"}})
	if err != nil {
		t.Fatal(err)
	}
	refresh(t, svc)
	f.panes = terminal.NewManager(nil)
	t.Cleanup(f.panes.CloseAll)
	f.b = NewBinding(svc, func(dir string, argv []string) (string, error) {
		info, err := f.panes.Create(terminal.Options{Dir: dir, Argv: argv, Cols: 400, Rows: 30})
		return info.ID, err
	})
	return f
}

// screenHas waits until the pane's screen shows every line in want.
func screenHas(t *testing.T, m *terminal.Manager, id string, want ...string) {
	t.Helper()
	var text string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		p, err := m.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		text = strings.Join(p.Screen().Lines, "\n")
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(text, w)
		}
		if ok {
			return
		}
	}
	t.Fatalf("pane screen never showed %q; it shows:\n%s", want, text)
}

func TestOpenInTerminalBranchMismatchAsksThenOpensInTheRecordedFolder(t *testing.T) {
	f := newBindingFixture(t)
	res, err := f.b.OpenInTerminal(OpenRequest{Ref: f.mismID})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Ask || res.PaneID != "" {
		t.Fatalf("a branch mismatch must ask before opening; got %+v", res)
	}
	if want := "This session was on fix/checkout-retry; the folder is on main now."; res.Question != want {
		t.Fatalf("question = %q, want %q", res.Question, want)
	}
	if n := len(f.panes.List()); n != 0 {
		t.Fatalf("no pane may start before the answer; %d started", n)
	}

	res, err = f.b.OpenInTerminal(OpenRequest{Ref: f.mismID, OpenAnyway: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.PaneID == "" {
		t.Fatalf("Open anyway must start a pane; got %+v", res)
	}
	infos := f.panes.List()
	if len(infos) != 1 || infos[0].ID != res.PaneID {
		t.Fatalf("panes = %+v, want the one pane %s", infos, res.PaneID)
	}
	// "default" is not in this claude's --permission-mode choices, so it is not passed.
	wantArgv := []string{"claude", "--resume", f.mismID, "--model", "claude-opus-4-5", "--effort", "high"}
	if infos[0].Dir != f.repo || !reflect.DeepEqual(infos[0].Argv, wantArgv) {
		t.Fatalf("pane runs %q in %s, want %q in %s", infos[0].Argv, infos[0].Dir, wantArgv, f.repo)
	}
	want := []string{"fake-claude cwd=" + f.repo}
	for _, a := range wantArgv[1:] {
		want = append(want, "arg="+a)
	}
	screenHas(t, f.panes, res.PaneID, want...)
	if b := currentBranch(t, f.repo); b != "main" {
		t.Fatalf("the folder's branch changed to %s: nothing may be checked out", b)
	}
}

func TestOpenInTerminalPermissiveModeNeedsItsTick(t *testing.T) {
	f := newBindingFixture(t)
	plan, err := f.b.Plan(f.permID, nil)
	if err != nil {
		t.Fatal(err)
	}
	var note ValueNote
	for _, v := range plan.Values {
		if v.Label == "Approval mode" {
			note = v
		}
	}
	if !note.Permissive || note.Kept || note.Value != "bypassPermissions" {
		t.Fatalf("bypassPermissions must be offered as a tick, not kept; note = %+v", note)
	}
	if strings.Contains(strings.Join(plan.Argv, " "), "--permission-mode") {
		t.Fatalf("unticked permissive mode passed: %q", plan.Argv)
	}
	for _, tc := range []struct {
		keep []string
		want bool
	}{{nil, false}, {[]string{"Sandbox"}, false}, {[]string{"Approval mode"}, true}} {
		res, err := f.b.OpenInTerminal(OpenRequest{Ref: f.permID, Keep: tc.keep})
		if err != nil {
			t.Fatal(err)
		}
		info := f.panes.List()
		got := strings.Contains(strings.Join(info[len(info)-1].Argv, " "), "--permission-mode bypassPermissions")
		if got != tc.want || res.PaneID != info[len(info)-1].ID {
			t.Fatalf("keep %v: pane argv %q, want permission mode passed = %v", tc.keep, info[len(info)-1].Argv, tc.want)
		}
	}
}

func TestOpenInTerminalRefusesAMissingFolder(t *testing.T) {
	f := newBindingFixture(t)
	_, err := f.b.OpenInTerminal(OpenRequest{Ref: f.goneID, OpenAnyway: true})
	if !errors.Is(err, ErrFolderMissing) || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "deleted-project") {
		t.Fatalf("err = %v, want a refusal naming the missing folder", err)
	}
	if n := len(f.panes.List()); n != 0 {
		t.Fatalf("a pane started for a missing folder (%d panes)", n)
	}
	if _, err := f.b.Plan(f.goneID, nil); !errors.Is(err, ErrFolderMissing) {
		t.Fatalf("Plan err = %v, want ErrFolderMissing", err)
	}
	if _, err := f.b.OpenInTerminal(OpenRequest{Ref: "no-such-session"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown ref: err = %v, want ErrNotFound", err)
	}
}

func TestOpenInTerminalReportsAMissingCLI(t *testing.T) {
	f := newBindingFixture(t)
	t.Setenv("PATH", t.TempDir()) // no claude anywhere
	_, err := f.b.OpenInTerminal(OpenRequest{Ref: f.mismID, OpenAnyway: true})
	if err == nil || !strings.Contains(err.Error(), `"claude" was not found`) {
		t.Fatalf("err = %v, want a clear not-found message", err)
	}
}

func TestBindingListsAppsAndPages(t *testing.T) {
	f := newBindingFixture(t)
	if got := len(f.b.Sessions("", "")); got != 3 {
		t.Fatalf("sessions = %d, want 3", got)
	}
	if got := f.b.Sessions("deleted-project", string(ClaudeCode)); len(got) != 1 || got[0].ID != f.goneID {
		t.Fatalf("search by folder = %+v", got)
	}
	if got := f.b.Sessions("", string(CodexCLI)); len(got) != 0 {
		t.Fatalf("codex filter = %d sessions, want 0", len(got))
	}
	page, err := f.b.Transcript(f.mismID, 0, 2)
	if err != nil || len(page.Rows) == 0 || page.Done {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	var kinds []string
	for cur := page.Next; ; {
		p, err := f.b.Transcript(f.mismID, cur, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Rows {
			kinds = append(kinds, r.Kind)
		}
		if p.Done {
			break
		}
		cur = p.Next
	}
	if !strings.Contains(strings.Join(kinds, ","), RowToolCall+","+RowToolResult) {
		t.Fatalf("row kinds %v: want the tool call and its result on their own rows", kinds)
	}
	if err := f.b.SetAppEnabled(string(ClaudeCode), false); err != nil {
		t.Fatal(err)
	}
	if got := len(f.b.Sessions("", "")); got != 0 {
		t.Fatalf("sessions after turning Claude Code off = %d, want 0", got)
	}
	if err := f.b.SetAppEnabled("nope", true); err == nil {
		t.Fatal("an unknown app must be refused")
	}
}
