package forge

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/osfoundry/desktop/backend/testkit/giteatest"
)

// staticTokens hands out one token per host, as the keychain would.
type staticTokens map[string]string

func (s staticTokens) Token(_ context.Context, h Host) (string, string, error) {
	if t, ok := s[h.Name]; ok {
		return t, "keychain", nil
	}
	return "", "", ErrNoToken
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git(context.Background(), dir, []string{"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.invalid"}, args...)
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return out
}

// giteaRepo makes a repository owned by the admin (main, one commit) and
// a clone of it with branch osf/<name> one commit ahead.
func giteaRepo(t *testing.T, g *giteatest.Server, name string) string {
	t.Helper()
	c, err := gitea.NewClient(g.URL, gitea.SetToken(g.Admin.Token))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, DefaultBranch: "main", Readme: "Default"}); err != nil {
		t.Fatalf("creating repository %s: %v", name, err)
	}
	dir := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("git", "clone", "-q", g.URL+"/"+g.Admin.Name+"/"+name+".git", dir).CombinedOutput(); err != nil {
		t.Fatalf("cloning: %v\n%s", err, out)
	}
	mustGit(t, dir, "checkout", "-q", "-b", "osf/"+name)
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, dir, "add", "hello.txt")
	mustGit(t, dir, "commit", "-q", "-m", "Say hello", "-m", "The greeting the issue asked for.")
	return dir
}

func onForge(t *testing.T, dir, branch string) bool {
	t.Helper()
	return mustGit(t, dir, "ls-remote", "--heads", "origin", "refs/heads/"+branch) != ""
}

func TestGiteaOpensPullRequest(t *testing.T) {
	g := giteatest.Start(t)
	ctx := context.Background()
	hosts := func() []Host { return []Host{{Name: g.Host, Kind: Gitea}} }
	admin := &Opener{Hosts: hosts, Tokens: staticTokens{g.Host: g.Admin.Token}}

	t.Run("push, open and read back", func(t *testing.T) {
		dir := giteaRepo(t, g, "demo")
		d, err := DraftFrom(ctx, dir, "origin/main", "osf/demo")
		if err != nil {
			t.Fatal(err)
		}
		if d.Title != "Say hello" || d.Body != "The greeting the issue asked for." {
			t.Fatalf("draft = %+v", d)
		}
		got, err := admin.Open(ctx, OpenRequest{Dir: dir, Branch: "osf/demo", Base: "main", Title: d.Title, Body: d.Body})
		if err != nil {
			t.Fatal(err)
		}
		want := g.URL + "/" + g.Admin.Name + "/demo/pulls/1"
		if got.PR.URL != want || got.PR.State != "open" || got.PR.Head != "osf/demo" || got.PR.Base != "main" || got.Existing {
			t.Fatalf("opened %+v, want %s open from osf/demo into main", got.PR, want)
		}
		if got.Repo.Host.Kind != Gitea || got.Repo.FullName() != g.Admin.Name+"/demo" {
			t.Fatalf("repo = %+v", got.Repo)
		}
		back, err := admin.Status(ctx, got.Repo, got.PR.Number)
		if err != nil || back.Title != "Say hello" || back.State != "open" || back.Checks.State != "none" {
			t.Fatalf("status = %+v, %v", back, err)
		}
		// A second open finds the first instead of failing or duplicating.
		again, err := admin.Open(ctx, OpenRequest{Dir: dir, Branch: "osf/demo", Base: "main", Title: "Again"})
		if err != nil || !again.Existing || again.PR.Number != got.PR.Number {
			t.Fatalf("second open = %+v, %v; want the same request reused", again, err)
		}
		// The token never lands in the repository's config.
		if cfg, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); strings.Contains(string(cfg), g.Admin.Token) {
			t.Fatal("the token was written into .git/config")
		}
	})

	t.Run("the dialog's binding: plan, token, open, card record", func(t *testing.T) {
		dir := giteaRepo(t, g, "dialog")
		settings, err := OpenSettings(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		kc := memKeychain{}
		changed := 0
		b := NewBinding(ctx, NewOpener(settings, kc, nil), settings, kc, func() { changed++ })
		// A self-hosted forge is unknown until the person says what runs there.
		plan, err := b.Plan(dir, "osf/dialog", "")
		if err != nil || plan.UnknownHost != g.Host {
			t.Fatalf("plan on an unknown host: %+v, %v", plan, err)
		}
		if err := b.AddHost(Host{Name: g.Host, Kind: Gitea}); err != nil {
			t.Fatal(err)
		}
		plan, err = b.Plan(dir, "osf/dialog", "")
		if err != nil {
			t.Fatal(err)
		}
		if plan.Base != "main" || plan.Forge != "Gitea" || plan.Draft.Title != "Say hello" || plan.TokenFrom != "" ||
			!strings.Contains(plan.TokenProblem, "paste a token") || plan.Existing != nil {
			t.Fatalf("plan without a token: %+v", plan)
		}
		if _, err := b.Open(OpenRequest{Dir: dir, Branch: "osf/dialog", Base: "main", Title: "Say hello"}); !errors.Is(err, ErrNoToken) {
			t.Fatalf("open without a token: %v", err)
		}
		if err := b.SaveToken(g.Host, g.Admin.Token); err != nil {
			t.Fatal(err)
		}
		if plan, _ = b.Plan(dir, "osf/dialog", "main"); plan.TokenFrom != "keychain" {
			t.Fatalf("plan after pasting: %+v", plan)
		}
		got, err := b.Open(OpenRequest{Dir: dir, Branch: "osf/dialog", Base: "main", Title: "Say hello", Body: "Edited."})
		if err != nil {
			t.Fatal(err)
		}
		rec := settings.Record(dir, "osf/dialog")
		if rec == nil || rec.PR.URL != got.PR.URL || changed != 1 {
			t.Fatalf("record for the card: %+v (changed %d)", rec, changed)
		}
		if r, err := b.Refresh(dir, "osf/dialog"); err != nil || r.PR.State != "open" || changed != 2 {
			t.Fatalf("refresh: %+v %v", r, err)
		}
		if plan, _ = b.Plan(dir, "osf/dialog", "main"); plan.Existing == nil || plan.Existing.PR.Number != got.PR.Number {
			t.Fatalf("plan after opening: %+v", plan.Existing)
		}
	})

	t.Run("token without push rights pushes nothing", func(t *testing.T) {
		dir := giteaRepo(t, g, "readonly")
		reader := &Opener{Hosts: hosts, Tokens: staticTokens{g.Host: g.Reader.Token}}
		_, err := reader.Open(ctx, OpenRequest{Dir: dir, Branch: "osf/readonly", Base: "main", Title: "Say hello"})
		if !errors.Is(err, ErrNoPushRight) || !strings.Contains(err.Error(), "nothing was pushed") {
			t.Fatalf("err = %v, want ErrNoPushRight saying nothing was pushed", err)
		}
		if onForge(t, dir, "osf/readonly") {
			t.Fatal("the branch was pushed although the token cannot push")
		}
	})

	t.Run("target branch gone", func(t *testing.T) {
		dir := giteaRepo(t, g, "gone")
		_, err := admin.Open(ctx, OpenRequest{Dir: dir, Branch: "osf/gone", Base: "release", Title: "Say hello"})
		if !errors.Is(err, ErrTargetGone) || !strings.Contains(err.Error(), "release") {
			t.Fatalf("err = %v, want ErrTargetGone naming release", err)
		}
		if onForge(t, dir, "osf/gone") {
			t.Fatal("the branch was pushed although its target is gone")
		}
	})

	t.Run("refused request removes the pushed branch", func(t *testing.T) {
		dir := giteaRepo(t, g, "refused")
		// Pull requests turned off: the push succeeds, then Gitea refuses the request.
		c, err := gitea.NewClient(g.URL, gitea.SetToken(g.Admin.Token))
		if err != nil {
			t.Fatal(err)
		}
		off := false
		if _, _, err := c.EditRepo(g.Admin.Name, "refused", gitea.EditRepoOption{HasPullRequests: &off}); err != nil {
			t.Fatal(err)
		}
		_, err = admin.Open(ctx, OpenRequest{Dir: dir, Branch: "osf/refused", Base: "main", Title: "Say hello"})
		if err == nil || !strings.Contains(err.Error(), "osf/refused was removed from "+g.Host+" again") || !strings.Contains(err.Error(), "turned off") {
			t.Fatalf("err = %v, want the refusal and the pushed branch reported removed", err)
		}
		if onForge(t, dir, "osf/refused") {
			t.Fatal("the pushed branch is still on the forge without its pull request")
		}
	})
}
