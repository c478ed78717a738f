package connect

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/osfoundry/desktop/backend/forge"
	"github.com/osfoundry/desktop/backend/testkit/giteatest"
)

// giteaToken is the owner's token for the test forge, as the keychain
// would hand it out.
type giteaToken struct{ host, token string }

func (g giteaToken) Token(_ context.Context, h forge.Host) (string, string, error) {
	if h.Name != g.host {
		return "", "", forge.ErrNoToken
	}
	return g.token, "keychain", nil
}

// toolText calls a tool and returns its text and whether it was an error.
func (e *env) toolText(token, tool string, args map[string]any) (string, bool) {
	e.t.Helper()
	_, out := e.rpc(e.srv.BaseURL(), token, "", "tools/call", map[string]any{"name": tool, "arguments": args})
	res, _ := out["result"].(map[string]any)
	if res == nil {
		e.t.Fatalf("%s: no result: %v", tool, out)
	}
	content, _ := res["content"].([]any)
	text := ""
	if len(content) > 0 {
		text, _ = content[0].(map[string]any)["text"].(string)
	}
	return text, res["isError"] == true
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.invalid")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestPullRequestProposalOpensOnGitea: an assistant proposes a branch of
// the project's repository; the owner sees its diff and target; approving
// opens a real pull request on a real Gitea, whose link get_proposal_status
// then reports. A proposal whose target branch was deleted on the forge
// stays pending with the reason, and nothing is pushed.
func TestPullRequestProposalOpensOnGitea(t *testing.T) {
	g := giteatest.Start(t)
	admin, err := gitea.NewClient(g.URL, gitea.SetToken(g.Admin.Token))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := admin.CreateRepo(gitea.CreateRepoOption{Name: "site", AutoInit: true, DefaultBranch: "main", Readme: "Default"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := admin.CreateBranch(g.Admin.Name, "site", gitea.CreateBranchOption{BranchName: "release", OldBranchName: "main"}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	run(t, filepath.Dir(dir), "clone", "-q", g.URL+"/"+g.Admin.Name+"/site.git", dir)
	run(t, dir, "fetch", "-q", "origin", "release:release")
	for _, b := range []string{"osf/footer", "osf/late"} {
		run(t, dir, "checkout", "-q", "-b", b, "main")
		if err := os.WriteFile(filepath.Join(dir, "footer.html"), []byte("<footer>"+b+"</footer>\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, dir, "add", "footer.html")
		run(t, dir, "commit", "-q", "-m", "Footer for "+b)
	}
	run(t, dir, "checkout", "-q", "main")

	opener := &forge.Opener{Hosts: func() []forge.Host { return []forge.Host{{Name: g.Host, Kind: forge.Gitea}} },
		Tokens: giteaToken{host: g.Host, token: g.Admin.Token}}
	e := newEnvOpts(t, ServerConfig{}, func(o *Options) {
		o.Repos = func(context.Context, string) (string, error) { return dir, nil }
		o.PullRequests = opener
	})
	gf := e.login(e.browser(true), "osfoundry:read osfoundry:write", false)
	conn := e.onlyConnection()
	must(t, e.svc.AddProject(bg, conn.ID, "proj-a"))

	// What the tool list offers: no proposals for things this app lacks.
	if slices.Contains(e.svc.cat.order, "propose_gitnest_work") || slices.Contains(e.svc.cat.order, "propose_room_app_install") ||
		!slices.Contains(e.svc.cat.order, "propose_pull_request") {
		t.Fatalf("tools offered: %v", e.svc.cat.order)
	}

	text, isErr := e.toolText(gf.access, "propose_pull_request", map[string]any{"project_id": "proj-a", "branch": "osf/footer",
		"base": "main", "title": "Footer", "body": "Adds the footer."})
	if isErr {
		t.Fatal(text)
	}
	var queued struct {
		ID string `json:"proposal_id"`
	}
	must(t, json.Unmarshal([]byte(text), &queued))
	p, err := e.svc.Proposal(bg, queued.ID)
	must(t, err)
	if !strings.Contains(p.Patch, "+<footer>osf/footer</footer>") || p.Request == nil || p.Request.Base != "main" ||
		p.Request.Forge != "Gitea "+g.URL+"/"+g.Admin.Name+"/site" || !slices.Equal(p.Files, []string{"footer.html"}) {
		t.Fatalf("the owner sees %+v (request %+v)", p, p.Request)
	}
	if out, _ := exec.Command("git", "-C", dir, "ls-remote", "--heads", "origin", "osf/footer").Output(); len(out) != 0 {
		t.Fatal("the branch was pushed before the owner approved")
	}

	p, err = e.svc.Decide(bg, queued.ID, OwnerID, true)
	must(t, err)
	want := g.URL + "/" + g.Admin.Name + "/site/pulls/1"
	if p.Status != ProposalApproved || p.URL != want || p.Number != 1 || p.Problem != "" {
		t.Fatalf("approved: status %s url %q problem %q", p.Status, p.URL, p.Problem)
	}
	pr, _, err := admin.GetPullRequest(g.Admin.Name, "site", 1)
	if err != nil || pr.Title != "Footer" || pr.Body != "Adds the footer." || pr.Head.Ref != "osf/footer" || pr.Base.Ref != "main" {
		t.Fatalf("on Gitea: %+v, %v", pr, err)
	}
	text, isErr = e.toolText(gf.access, "get_proposal_status", map[string]any{"proposal_id": queued.ID})
	if isErr || !strings.Contains(text, `"url": "`+want+`"`) || !strings.Contains(text, `"status": "approved"`) {
		t.Fatalf("get_proposal_status: %s", text)
	}

	// The target is deleted on the forge after the proposal was queued.
	text, isErr = e.toolText(gf.access, "propose_pull_request", map[string]any{"project_id": "proj-a", "branch": "osf/late",
		"base": "release", "title": "Late footer"})
	if isErr {
		t.Fatal(text)
	}
	must(t, json.Unmarshal([]byte(text), &queued))
	if _, _, err := admin.DeleteRepoBranch(g.Admin.Name, "site", "release"); err != nil {
		t.Fatal(err)
	}
	p, err = e.svc.Decide(bg, queued.ID, OwnerID, true)
	must(t, err)
	if p.Status != ProposalPending || !strings.Contains(p.Problem, "has no branch release") || !strings.Contains(p.Problem, "nothing was pushed") {
		t.Fatalf("after the target was deleted: status %s problem %q", p.Status, p.Problem)
	}
	if out, _ := exec.Command("git", "-C", dir, "ls-remote", "--heads", "origin", "osf/late").Output(); len(out) != 0 {
		t.Fatal("the branch was pushed although its target is gone")
	}
	text, _ = e.toolText(gf.access, "get_proposal_status", map[string]any{"proposal_id": queued.ID})
	if !strings.Contains(text, "has no branch release") || !strings.Contains(text, `"status": "pending"`) {
		t.Fatalf("get_proposal_status after the failure: %s", text)
	}
}
