package review

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/worktree"
)

var ctx = context.Background()

func gitEnv() []string {
	return append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull)
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := worktree.Git(ctx, gitEnv(), dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fakePanes lists branch panes as the terminal would; Close forgets one.
type fakePanes struct {
	mu     sync.Mutex
	panes  []terminal.Info
	closed []string
}

func (f *fakePanes) List() []terminal.Info {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]terminal.Info(nil), f.panes...)
}

func (f *fakePanes) Close(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, p := range f.panes {
		if p.ID == id {
			f.panes = append(f.panes[:i], f.panes[i+1:]...)
			f.closed = append(f.closed, id)
		}
	}
	return nil
}

// fakeAgent is an agent whose state the test sets; what it is sent is kept.
type fakeAgent struct {
	mu     sync.Mutex
	state  string // "" no agent
	paused bool
	typed  []string
}

func (a *fakeAgent) AgentState(string) (string, bool, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.state, a.paused, a.state != ""
}

func (a *fakeAgent) Type(_, text string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.typed = append(a.typed, text)
	return nil
}

func (a *fakeAgent) set(state string) {
	a.mu.Lock()
	a.state = state
	a.mu.Unlock()
}

func (a *fakeAgent) sent() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.typed...)
}

type rig struct {
	repo  string
	svc   *Service
	panes *fakePanes
	agent *fakeAgent
}

// newRig makes the repository shop (main: app.js with five lines) and one
// pane "p1" on osf/<name> made by worktree.Create, as "On a new branch" does.
func newRig(t *testing.T, names ...string) *rig {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "shop")
	write(t, filepath.Join(repo, "app.js"), "one\ntwo\nthree\nfour\nfive\n")
	git(t, filepath.Dir(repo), "init", "-q", "-b", "main", repo)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "first")
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cs, err := OpenComments(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{repo: repo, panes: &fakePanes{}, agent: &fakeAgent{}}
	if len(names) == 0 {
		names = []string{"one"}
	}
	for i, n := range names {
		tr, err := worktree.Create(ctx, worktree.Request{Repo: repo, Name: n, Env: gitEnv()}, worktree.Config{})
		if err != nil {
			t.Fatal(err)
		}
		r.panes.panes = append(r.panes.panes, terminal.Info{ID: "p" + string(rune('1'+i)), Dir: tr.Dir,
			Branch: &terminal.Branch{Repo: tr.Repo, Worktree: tr.Dir, Name: tr.Branch, Base: tr.Base, BaseCommit: tr.BaseCommit}})
	}
	r.svc = New(Options{Panes: r.panes, Agent: r.agent, Comments: cs, Env: gitEnv})
	return r
}

func (r *rig) wt(i int) string { return r.panes.panes[i].Branch.Worktree }
