package forge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// replay answers API calls with the example responses of the forge's REST
// documentation (testdata/<forge>/*.json, trimmed to the fields a client
// reads), so GitHub and GitLab go through the same Open as Gitea does.
type replay struct {
	t      *testing.T
	routes map[string]string // "METHOD escaped-path" → testdata file ("" → 404)
	mu     sync.Mutex
	calls  []string
	posted map[string]any
}

func (rp *replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Method + " " + r.URL.EscapedPath()
	rp.mu.Lock()
	rp.calls = append(rp.calls, key)
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &rp.posted)
	}
	rp.mu.Unlock()
	// GitHub sends Authorization: Bearer, GitLab a PRIVATE-TOKEN header.
	if auth := r.Header.Get("Authorization") + r.Header.Get("PRIVATE-TOKEN"); !strings.Contains(auth, "documented-token") {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"message":"Bad credentials"}`)
		return
	}
	file, ok := rp.routes[key]
	if !ok || file == "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"message":"Not Found"}`)
		return
	}
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		rp.t.Errorf("reading %s: %v", file, err)
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if r.Method == http.MethodPost {
		w.WriteHeader(http.StatusCreated)
	}
	if strings.HasSuffix(r.URL.Path, "/pulls") && r.Method == http.MethodGet ||
		strings.HasSuffix(r.URL.Path, "/merge_requests") && r.Method == http.MethodGet {
		_, _ = w.Write([]byte("[]")) // no open request yet
		return
	}
	_, _ = w.Write(data)
}

func (rp *replay) called(key string) bool {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	for _, c := range rp.calls {
		if c == key {
			return true
		}
	}
	return false
}

// documentedRepo is a clone whose origin names the forge's URL while its
// pushes go to a local bare repository (pushInsteadOf), holding base and
// branch one commit ahead.
func documentedRepo(t *testing.T, originURL, base, branch string) (dir, bare string) {
	t.Helper()
	root := t.TempDir()
	bare, dir = filepath.Join(root, "forge.git"), filepath.Join(root, "work")
	for _, args := range [][]string{{"init", "-q", "--bare", bare}, {"init", "-q", "-b", base, dir}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	mustGit(t, dir, "remote", "add", "origin", originURL)
	mustGit(t, dir, "config", "url."+bare+".pushInsteadOf", originURL)
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, dir, "add", "README")
	mustGit(t, dir, "commit", "-q", "-m", "Start")
	mustGit(t, dir, "push", "-q", "origin", base)
	mustGit(t, dir, "checkout", "-q", "-b", branch)
	if err := os.WriteFile(filepath.Join(dir, "login.css"), []byte("a{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, dir, "add", "login.css")
	mustGit(t, dir, "commit", "-q", "-m", "Fix login page paddings")
	return dir, bare
}

func bareHas(t *testing.T, bare, branch string) bool {
	t.Helper()
	out, _ := exec.Command("git", "--git-dir", bare, "branch", "--list", branch).Output()
	return strings.TrimSpace(string(out)) != ""
}

func TestGitHubDocumentedResponses(t *testing.T) {
	const prefix = "/repos/octocat/Hello-World"
	routes := map[string]string{
		"GET " + prefix:                      "github/repo.json",
		"GET " + prefix + "/branches/master": "github/branch.json",
		"GET " + prefix + "/pulls":           "github/pull.json",
		"POST " + prefix + "/pulls":          "github/pull.json",
		"GET " + prefix + "/pulls/1347":      "github/pull.json",
		"GET " + prefix + "/commits/6dcb09b5b57875f334f61aebed695e2e4193db5e/check-runs": "github/check-runs.json",
		"GET " + prefix + "/commits/6dcb09b5b57875f334f61aebed695e2e4193db5e/status":     "github/status.json",
	}
	cases := []struct {
		name, repoFile, base string
		wantErr              error
	}{
		{name: "opens and reads back", repoFile: "github/repo.json", base: "master"},
		{name: "read-only token", repoFile: "github/repo-readonly.json", base: "master", wantErr: ErrNoPushRight},
		{name: "target gone", repoFile: "github/repo.json", base: "gone", wantErr: ErrTargetGone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rp := &replay{t: t, routes: map[string]string{}}
			for k, v := range routes {
				rp.routes[k] = v
			}
			rp.routes["GET "+prefix] = tc.repoFile
			srv := httptest.NewServer(rp)
			defer srv.Close()
			dir, bare := documentedRepo(t, "https://github.com/octocat/Hello-World.git", "master", "new-topic")
			o := &Opener{Hosts: func() []Host { return []Host{{Name: "github.com", Kind: GitHub, API: srv.URL}} },
				Tokens: staticTokens{"github.com": "documented-token"}}
			got, err := o.Open(context.Background(), OpenRequest{Dir: dir, Branch: "new-topic", Base: tc.base, Title: "Amazing new feature", Body: "Please pull these awesome changes in!"})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if bareHas(t, bare, "new-topic") || rp.called("POST "+prefix+"/pulls") {
					t.Fatal("pushed or opened although the open was refused")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.PR.URL != "https://github.com/octocat/Hello-World/pull/1347" || got.PR.Number != 1347 || got.PR.State != "open" {
				t.Fatalf("pr = %+v", got.PR)
			}
			// one neutral check run and two statuses: success and pending.
			if c := got.PR.Checks; c.State != "pending" || c.Total != 3 || c.Passed != 2 || c.Pending != 1 {
				t.Fatalf("checks = %+v, want 3 with 1 pending", c)
			}
			if rp.posted["head"] != "new-topic" || rp.posted["base"] != tc.base || rp.posted["title"] != "Amazing new feature" {
				t.Fatalf("posted %v", rp.posted)
			}
			if !bareHas(t, bare, "new-topic") {
				t.Fatal("the branch was not pushed")
			}
		})
	}
}

func TestGitLabDocumentedResponses(t *testing.T) {
	const prefix = "/api/v4/projects/diaspora%2Fdiaspora-project-site"
	routes := map[string]string{
		"GET " + prefix: "gitlab/project.json",
		"GET " + prefix + "/repository/branches/main": "gitlab/branch.json",
		"GET " + prefix + "/merge_requests":           "gitlab/merge_request.json",
		"POST " + prefix + "/merge_requests":          "gitlab/merge_request.json",
		"GET " + prefix + "/merge_requests/1":         "gitlab/merge_request.json",
	}
	cases := []struct {
		name, projectFile, base string
		wantErr                 error
	}{
		{name: "opens and reads back", projectFile: "gitlab/project.json", base: "main"},
		{name: "reporter cannot push", projectFile: "gitlab/project-reporter.json", base: "main", wantErr: ErrNoPushRight},
		{name: "target gone", projectFile: "gitlab/project.json", base: "gone", wantErr: ErrTargetGone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rp := &replay{t: t, routes: map[string]string{}}
			for k, v := range routes {
				rp.routes[k] = v
			}
			rp.routes["GET "+prefix] = tc.projectFile
			srv := httptest.NewServer(rp)
			defer srv.Close()
			dir, bare := documentedRepo(t, "https://gitlab.com/diaspora/diaspora-project-site.git", "main", "test1")
			o := &Opener{Hosts: func() []Host { return []Host{{Name: "gitlab.com", Kind: GitLab, API: srv.URL + "/api/v4"}} },
				Tokens: staticTokens{"gitlab.com": "documented-token"}}
			got, err := o.Open(context.Background(), OpenRequest{Dir: dir, Branch: "test1", Base: tc.base, Title: "test1", Body: "fixed login page css paddings"})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if bareHas(t, bare, "test1") || rp.called("POST "+prefix+"/merge_requests") {
					t.Fatal("pushed or opened although the open was refused")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.PR.URL != "http://gitlab.example.com/my-group/my-project/merge_requests/1" || got.PR.Number != 1 || got.PR.State != "open" {
				t.Fatalf("mr = %+v", got.PR)
			}
			if c := got.PR.Checks; c.State != "pending" || c.Total != 1 {
				t.Fatalf("checks = %+v, want the running head pipeline", c)
			}
			if rp.posted["source_branch"] != "test1" || rp.posted["target_branch"] != tc.base {
				t.Fatalf("posted %v", rp.posted)
			}
			if !bareHas(t, bare, "test1") {
				t.Fatal("the branch was not pushed")
			}
		})
	}
}

func TestRepoFromRemote(t *testing.T) {
	self := []Host{{Name: "git.example.org", Kind: Gitea}, {Name: "gl.corp:8443", Kind: GitLab}}
	cases := []struct {
		url, host, owner, name, api string
		kind                        Kind
	}{
		{"https://github.com/o/r.git", "github.com", "o", "r", "https://api.github.com/", GitHub},
		{"git@github.com:o/r.git", "github.com", "o", "r", "https://api.github.com/", GitHub},
		{"ssh://git@gitlab.com/group/sub/r.git", "gitlab.com", "group/sub", "r", "https://gitlab.com/api/v4", GitLab},
		{"https://codeberg.org/o/r", "codeberg.org", "o", "r", "https://codeberg.org", Gitea},
		{"https://git.example.org/o/r.git", "git.example.org", "o", "r", "https://git.example.org", Gitea},
		{"git@git.example.org:o/r.git", "git.example.org", "o", "r", "https://git.example.org", Gitea},
		{"https://gl.corp:8443/team/r.git", "gl.corp:8443", "team", "r", "https://gl.corp:8443/api/v4", GitLab},
	}
	for _, c := range cases {
		r, err := RepoFromRemote("origin", c.url, self)
		if err != nil {
			t.Errorf("%s: %v", c.url, err)
			continue
		}
		if r.Host.Name != c.host || r.Host.Kind != c.kind || r.Owner != c.owner || r.Name != c.name || r.Host.API != c.api {
			t.Errorf("%s: got %+v", c.url, r)
		}
	}
	for _, bad := range []string{"https://example.net/o/r.git", "/srv/git/r.git", "https://github.com/onlyowner"} {
		if _, err := RepoFromRemote("origin", bad, self); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if _, err := RepoFromRemote("origin", "https://example.net/o/r.git", nil); !errors.Is(err, ErrUnknownForge) || !strings.Contains(err.Error(), "Settings → Forges") {
		t.Errorf("unknown host: %v", err)
	}
}
