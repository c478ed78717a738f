//go:build !windows

package terminal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/acp"
	"github.com/osfoundry/desktop/backend/worktree"
)

// TestMain lets the test binary stand in for `osfoundry pane setup -- …`
// in a pane (the helper a branch pane runs its set-up command with) and for
// `osfoundry acp -- …` (an ACP pane's client).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "acp" {
		os.Exit(acp.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	}
	if len(os.Args) > 3 && os.Args[1] == "pane" && os.Args[2] == "setup" && os.Args[3] == "--" {
		if err := worktree.SetupThenExec(os.Args[4:], os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

// memSetups is a pane store that also keeps personal set-ups.
type memSetups struct {
	memSpecs
	mu  sync.Mutex
	cfg map[string]worktree.Config
}

func (s *memSetups) WorktreeSetup(repo string) (worktree.Config, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg[repo], nil
}

func (s *memSetups) SaveWorktreeSetup(repo string, c worktree.Config) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg == nil {
		s.cfg = map[string]worktree.Config{}
	}
	s.cfg[repo] = c
	return nil
}

func gitEnv() []string {
	return append(shellEnv(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := worktree.Git(context.Background(), gitEnv(), dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

func put(t *testing.T, path, text string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// branchRepo is <tmp>/shop on main with an ignored .env, and a Service
// whose panes run their set-up through this test binary.
func branchRepo(t *testing.T) (string, *Service, *Manager, *memSetups) {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "shop")
	put(t, filepath.Join(repo, "app.js"), "a\nb\n")
	put(t, filepath.Join(repo, ".gitignore"), ".env\n")
	git(t, filepath.Dir(repo), "init", "-q", "-b", "main", repo)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "first")
	put(t, filepath.Join(repo, ".env"), "PORT=3000\n")
	m := NewManager(nil)
	t.Cleanup(m.CloseAll)
	st := &memSetups{}
	m.SetStore(st)
	svc := NewService(m, gitEnv)
	svc.exe = os.Args[0]
	return repo, svc, m, st
}

func screenOf(t *testing.T, m *Manager, id string) string {
	p, err := m.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(p.Screen().Lines, "\n")
}

func TestPaneOnNewBranchRunsSetupThenTheProgramInItsWorktree(t *testing.T) {
	repo, svc, m, st := branchRepo(t)
	if err := svc.SavePersonalSetup(repo, worktree.Config{Copy: []string{".env"}, Setup: "echo SETUP-RAN; echo $OSF_PORT_OFFSET > setup.txt"}); err != nil {
		t.Fatal(err)
	}
	if c, _ := st.WorktreeSetup(repo); c.Setup == "" {
		t.Fatal("the personal set-up was not kept")
	}
	agent := `sh -c 'echo hello > agent.txt; echo AGENT-PORT-$OSF_PORT_OFFSET; cat .env; exec sleep 100'`
	one, err := svc.Create(CreateRequest{Dir: repo, Command: agent, Branch: &BranchRequest{Name: "one"}})
	if err != nil {
		t.Fatal(err)
	}
	two, err := svc.Create(CreateRequest{Dir: repo, Command: agent, Branch: &BranchRequest{Name: "two", Base: "main"}})
	if err != nil {
		t.Fatal(err)
	}
	if one.Branch == nil || one.Branch.Name != "osf/one" || one.Branch.Base != "main" || one.Dir != worktree.Folder(repo, "one") {
		t.Fatalf("pane one = %+v", one)
	}
	if one.Branch.PortOffset == two.Branch.PortOffset || one.Branch.PortOffset == 0 {
		t.Errorf("port offsets %d and %d, want distinct", one.Branch.PortOffset, two.Branch.PortOffset)
	}
	for _, p := range []Info{one, two} {
		waitFor(t, "the set-up output, then the program's", func() bool {
			s := screenOf(t, m, p.ID)
			return strings.Contains(s, "SETUP-RAN") && strings.Contains(s, "PORT=3000") &&
				strings.Index(s, "SETUP-RAN") < strings.Index(s, "AGENT-PORT-")
		})
		if s := screenOf(t, m, p.ID); !strings.Contains(s, "AGENT-PORT-"+itoa(p.Branch.PortOffset)) || !strings.Contains(s, "On "+p.Branch.Name+" from main") {
			t.Errorf("pane %s screen:\n%s", p.Branch.Name, s)
		}
	}
	waitFor(t, "the agent's file", func() bool {
		_, err := os.Stat(filepath.Join(one.Dir, "agent.txt"))
		return err == nil
	})
	info, err := m.RefreshBranch(one.ID)
	if err != nil {
		t.Fatal(err)
	}
	// agent.txt and setup.txt, one line each; the copied .env is ignored.
	if info.Added != 2 || info.Removed != 0 {
		t.Errorf("counts +%d −%d, want +2 −0", info.Added, info.Removed)
	}
	if b, _ := os.ReadFile(filepath.Join(two.Dir, "setup.txt")); strings.TrimSpace(string(b)) != itoa(two.Branch.PortOffset) {
		t.Errorf("pane two's set-up wrote %q, want its own offset", b)
	}
	if st := git(t, repo, "status", "--porcelain"); st != "" || git(t, repo, "symbolic-ref", "--short", "HEAD") != "main" {
		t.Errorf("the person's checkout changed: %q", st)
	}
	for _, f := range []string{"agent.txt", "setup.txt"} {
		if _, err := os.Stat(filepath.Join(repo, f)); err == nil {
			t.Errorf("%s reached the person's checkout", f)
		}
	}
	if err := svc.Close(one.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(one.Dir, "agent.txt")); err != nil || git(t, repo, "branch", "--list", "osf/one") == "" {
		t.Error("closing the pane lost its worktree or branch")
	}
	three, err := svc.Create(CreateRequest{Dir: repo, Command: "sh", Branch: &BranchRequest{Name: "three"}})
	if err != nil {
		t.Fatal(err)
	}
	if three.Branch.PortOffset != one.Branch.PortOffset {
		t.Errorf("closed pane's offset %d not reused (got %d)", one.Branch.PortOffset, three.Branch.PortOffset)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestBranchPaneSaysWhenSetupFailsOrHangs(t *testing.T) {
	cases := []struct{ name, toml, words string }{
		{"fails", "setup = \"echo broken >&2; exit 4\"\n", "the set-up command failed (exit 4)"},
		{"hangs", "setup = \"sleep 300\"\nsetup_limit_seconds = 1\n", "the set-up command was stopped at its time limit (1s)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			repo, svc, m, _ := branchRepo(t)
			// The repository's file wins over the personal set-up.
			put(t, filepath.Join(repo, ".osfoundry", "worktree.toml"), c.toml)
			svc.SavePersonalSetup(repo, worktree.Config{Setup: "echo PERSONAL"})
			info, err := svc.Create(CreateRequest{Dir: repo, Command: "sh -c 'echo AGENT-STARTED; exec sleep 100'", Branch: &BranchRequest{Name: "s"}})
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the set-up message", func() bool { return strings.Contains(screenOf(t, m, info.ID), c.words) })
			s := screenOf(t, m, info.ID)
			if strings.Contains(s, "PERSONAL") || strings.Contains(s, "AGENT-STARTED") || !strings.Contains(s, "Press Enter to start sh anyway") {
				t.Fatalf("screen:\n%s", s)
			}
			svc.Input(info.ID, "\r")
			waitFor(t, "the program after Enter", func() bool { return strings.Contains(screenOf(t, m, info.ID), "AGENT-STARTED") })
		})
	}
}

func TestBranchPaneBadInputLeavesNothing(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T, repo string) CreateRequest
		words   string
	}{
		{"not a repository", func(t *testing.T, repo string) CreateRequest {
			return CreateRequest{Dir: t.TempDir(), Branch: &BranchRequest{Name: "x"}}
		}, "not a git repository"},
		{"branch exists", func(t *testing.T, repo string) CreateRequest {
			git(t, repo, "branch", "osf/x")
			return CreateRequest{Dir: repo, Branch: &BranchRequest{Name: "x"}}
		}, "already exists"},
		{"detached head", func(t *testing.T, repo string) CreateRequest {
			git(t, repo, "checkout", "-q", "--detach")
			return CreateRequest{Dir: repo, Branch: &BranchRequest{Name: "x"}}
		}, "detached HEAD"},
		{"program missing", func(t *testing.T, repo string) CreateRequest {
			return CreateRequest{Dir: repo, Command: "no-such-agent-here", Branch: &BranchRequest{Name: "x"}}
		}, "the new worktree and branch were removed"},
		{"broken set-up file", func(t *testing.T, repo string) CreateRequest {
			put(t, filepath.Join(repo, ".osfoundry", "worktree.toml"), "setup = [\n")
			return CreateRequest{Dir: repo, Branch: &BranchRequest{Name: "x"}}
		}, "nothing was created"},
		{"copy escapes", func(t *testing.T, repo string) CreateRequest {
			put(t, filepath.Join(repo, ".osfoundry", "worktree.toml"), "copy = [\"../secrets/*\"]\n")
			return CreateRequest{Dir: repo, Branch: &BranchRequest{Name: "x"}}
		}, "reaches outside the repository"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			repo, svc, m, _ := branchRepo(t)
			req := c.prepare(t, repo)
			before := git(t, repo, "branch", "--list")
			_, err := svc.Create(req)
			if err == nil || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("Create = %v, want an error saying %q", err, c.words)
			}
			if len(m.List()) != 0 {
				t.Error("a pane was started")
			}
			if got := git(t, repo, "branch", "--list"); got != before {
				t.Errorf("branches changed: %q, was %q", got, before)
			}
			if _, err := os.Stat(worktree.Folder(repo, "x")); !errors.Is(err, os.ErrNotExist) {
				t.Error("a worktree folder was left behind")
			}
		})
	}
}

func TestRestoredBranchPaneKeepsItsBranchAndOffset(t *testing.T) {
	repo, svc, m, st := branchRepo(t)
	info, err := svc.Create(CreateRequest{Dir: repo, Command: "sh", Branch: &BranchRequest{Name: "r"}})
	if err != nil {
		t.Fatal(err)
	}
	specs, _ := st.LoadPanes()
	if len(specs) != 1 || specs[0].Branch == nil || *specs[0].Branch != *info.Branch {
		t.Fatalf("saved %+v, want the pane's branch %+v", specs, info.Branch)
	}
	m.CloseAll()
	m2 := NewManager(nil)
	defer m2.CloseAll()
	m2.SetStore(st)
	if err := m2.Restore(gitEnv()); err != nil {
		t.Fatal(err)
	}
	l := m2.List()
	if len(l) != 1 || l[0].Branch == nil || l[0].Branch.Name != "osf/r" || l[0].Branch.PortOffset != info.Branch.PortOffset || l[0].Dir != info.Dir {
		t.Fatalf("restored %+v", l)
	}
}

func TestBranchPlanSaysWhereAndWhatApplies(t *testing.T) {
	repo, svc, _, _ := branchRepo(t)
	put(t, filepath.Join(repo, ".osfoundry", "worktree.toml"), "copy = [\".env\"]\n")
	svc.SavePersonalSetup(repo, worktree.Config{Setup: "npm ci"})
	p, err := svc.BranchPlan(repo)
	if err != nil {
		t.Fatal(err)
	}
	if p.Problem != "" || p.Current != "main" || p.Folder != filepath.Join(filepath.Dir(repo), "shop.osf-worktrees") ||
		p.Setup.Sources.Copy != "repository" || p.Setup.Sources.Setup != "personal" || p.Setup.Config.Setup != "npm ci" {
		t.Errorf("plan = %+v", p)
	}
	if p, _ := svc.BranchPlan(t.TempDir()); !strings.Contains(p.Problem, "not a git repository") {
		t.Errorf("plan outside git = %+v", p)
	}
	if err := svc.SavePersonalSetup(repo, worktree.Config{Copy: []string{"/etc/passwd"}}); !errors.Is(err, worktree.ErrEscapes) {
		t.Errorf("saving an escaping glob = %v", err)
	}
}
