package connect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Me", "GIT_AUTHOR_EMAIL=me@example.com",
		"GIT_COMMITTER_NAME=Me", "GIT_COMMITTER_EMAIL=me@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// changeSetEnv is a signed-in connection added to proj-a whose Local
// Folder is a git repository with uncommitted work.
func changeSetEnv(t *testing.T) (*env, string, string) {
	e := newEnv(t)
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q", "-b", "main")
	must(t, os.WriteFile(filepath.Join(repo, "app.txt"), []byte("one\ntwo\n"), 0o644))
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-q", "-m", "start")
	must(t, os.WriteFile(filepath.Join(repo, "app.txt"), []byte("one\ntwo\nmine\n"), 0o644))
	e.svc.repos = func(_ context.Context, project string) (string, error) { return repo, nil }
	g := e.login(e.browser(true), "osfoundry:read osfoundry:write", false)
	must(t, e.svc.AddProject(bg, e.onlyConnection().ID, "proj-a"))
	return e, g.access, repo
}

func TestChangeSetWaitsThenApplies(t *testing.T) {
	e, token, repo := changeSetEnv(t)
	panel := NewPanel(bg, e.svc, e.srv)
	args := map[string]any{"project_id": "proj-a", "title": "Say three",
		"files": []map[string]string{{"path": "app.txt", "content": "one\ntwo\nthree\n"}, {"path": "docs/new.md", "content": "# New\n"}}}
	if _, got := e.callTool(token, "propose_change_set", args); got != "OK" {
		t.Fatalf("propose: %s", got)
	}
	if b := gitIn(t, repo, "branch", "--list", "osfoundry/*"); b != "" {
		t.Fatalf("a branch before approval: %q", b)
	}
	ps, err := panel.NeedsApproval()
	if err != nil || len(ps) != 1 {
		t.Fatalf("needs approval: %+v %v", ps, err)
	}
	p := ps[0]
	if p.Target != repo || strings.Join(p.Files, ",") != "app.txt,docs/new.md" {
		t.Fatalf("card target %q files %v", p.Target, p.Files)
	}
	if len(p.Changes) != 2 || p.Changes[0].Before != "one\ntwo\n" || p.Changes[0].After != "one\ntwo\nthree\n" || !p.Changes[1].Added {
		t.Fatalf("card changes %+v", p.Changes)
	}
	p, err = panel.Approve(p.ID)
	if err != nil || p.Status != "approved" || p.Problem != "" {
		t.Fatalf("approve: %+v %v", p, err)
	}
	if p.Branch != "osfoundry/proposal-"+p.ID || p.Commit == "" || !strings.Contains(p.Diff, "+three") {
		t.Fatalf("outcome: branch %q commit %q diff %q", p.Branch, p.Commit, p.Diff)
	}
	if got := gitIn(t, repo, "show", p.Branch+":docs/new.md"); got != "# New" {
		t.Fatalf("branch content %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "app.txt")); string(b) != "one\ntwo\nmine\n" {
		t.Fatalf("uncommitted work changed: %q", b)
	}
	if got := gitIn(t, repo, "rev-parse", "--abbrev-ref", "HEAD"); got != "main" {
		t.Fatalf("checked-out branch is now %q", got)
	}
	again, err := e.svc.Proposal(bg, p.ID)
	if err != nil || again.Branch != p.Branch || again.Diff != p.Diff {
		t.Fatalf("outcome not kept: %+v %v", again, err)
	}
}

func TestChangeSetStalePatchStaysOnCard(t *testing.T) {
	e, token, repo := changeSetEnv(t)
	panel := NewPanel(bg, e.svc, e.srv)
	patch := "--- a/app.txt\n+++ b/app.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"
	if _, got := e.callTool(token, "propose_change_set", map[string]any{"project_id": "proj-a", "title": "Shout", "patch": patch}); got != "OK" {
		t.Fatalf("propose: %s", got)
	}
	must(t, os.WriteFile(filepath.Join(repo, "app.txt"), []byte("one\n2\n"), 0o644))
	gitIn(t, repo, "commit", "-q", "-am", "someone else changed it")
	ps, _ := panel.NeedsApproval()
	if len(ps) != 1 || ps[0].Patch != patch || strings.Join(ps[0].Files, ",") != "app.txt" {
		t.Fatalf("card: %+v", ps)
	}
	p, err := panel.Approve(ps[0].ID)
	if err != nil || p.Status != "pending" || !strings.Contains(p.Problem, "no longer applies") {
		t.Fatalf("stale approve: %+v %v", p, err)
	}
	if b := gitIn(t, repo, "branch", "--list", "osfoundry/*"); b != "" {
		t.Fatalf("half-applied: branch %q", b)
	}
	if ps, _ := panel.NeedsApproval(); len(ps) != 1 || ps[0].Problem != p.Problem {
		t.Fatalf("problem not on the card: %+v", ps)
	}
	p, err = panel.Decline(p.ID)
	if err != nil || p.Status != "declined" {
		t.Fatalf("decline: %+v %v", p, err)
	}
	if b := gitIn(t, repo, "branch", "--list", "osfoundry/*"); b != "" {
		t.Fatalf("declined left a branch %q", b)
	}
}

func TestChangeSetRefusesBadInput(t *testing.T) {
	e, token, repo := changeSetEnv(t)
	must(t, os.Symlink("/etc", filepath.Join(repo, "etc")))
	gitIn(t, repo, "add", "etc")
	gitIn(t, repo, "commit", "-q", "-m", "link")
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"dotdot", map[string]any{"files": []map[string]string{{"path": "../x", "content": "x"}}}, "DENY change set refused"},
		{"git", map[string]any{"files": []map[string]string{{"path": ".git/config", "content": "x"}}}, "DENY change set refused"},
		{"binary", map[string]any{"files": []map[string]string{{"path": "a", "content": "\x00"}}}, "DENY change set refused"},
		{"nothing", map[string]any{}, "DENY change set refused"},
		{"symlink", map[string]any{"files": []map[string]string{{"path": "etc/passwd", "content": "x"}}}, "DENY change set refused"},
		{"symlink itself", map[string]any{"files": []map[string]string{{"path": "etc", "content": "x"}}}, "DENY change set refused"},
		{"old shape", map[string]any{"target": "repo", "files": []string{"a.txt"}}, `DENY unknown argument "target"`},
		{"files as names", map[string]any{"files": []string{"a.txt"}}, "DENY argument files"},
	}
	for _, c := range cases {
		c.args["project_id"], c.args["title"] = "proj-a", "Bad"
		if _, got := e.callTool(token, "propose_change_set", c.args); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
	if ps, _ := e.svc.Proposals(bg, ""); len(ps) != 0 {
		t.Fatalf("refused input was queued: %+v", ps)
	}
}

func TestChangeSetWithoutLocalFolder(t *testing.T) {
	e := newEnv(t)
	g := e.login(e.browser(true), "osfoundry:read osfoundry:write", false)
	must(t, e.svc.AddProject(bg, e.onlyConnection().ID, "proj-a"))
	args := map[string]any{"project_id": "proj-a", "title": "x", "files": []map[string]string{{"path": "a", "content": "x"}}}
	if _, got := e.callTool(g.access, "propose_change_set", args); !strings.HasPrefix(got, "DENY no Local Folder") {
		t.Fatalf("got %s", got)
	}
}
