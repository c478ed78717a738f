package teamauth

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A sign-in in Chromium with the provider on another site: the Strict
// session cookie still ends up sent to the page the sign-in came back to
// (the landing page), is left out of navigations other sites start, and
// a link from another site to a page that needs it lands signed in
// (frontend/e2e/teampage/sign-in.mjs says what it checks).
func TestStrictCookieSignInInChromium(t *testing.T) {
	tm := newTeamWith(t, "localhost")
	tm.pages.Store(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := tm.replicas[0].Person(r)
		if !ok {
			tm.replicas[0].SendToSignIn(w, r, r.URL.RequestURI())
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><p>signed in as %s</p>", p.Email)
	}))
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: make deps-test installs it")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Fatal("no Chromium at /usr/bin/chromium: make deps-test installs Debian's chromium (or set CHROMIUM)")
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "frontend", "e2e", "teampage")
	cmd := exec.Command(node, filepath.Join(dir, "sign-in.mjs"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BASE="+tm.URL, "OP="+tm.op.URL, "PAGE=/test/page?x=1", "CHROMIUM="+chromium)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		t.Log(l)
	}
	if err != nil {
		t.Fatalf("sign-in.mjs: %v\n%s", err, stderr.String())
	}
}

// A page request without a session: one another site's navigation
// brought lands on this site and asks again; any other goes to sign in.
func TestSendToSignInLandsCrossSiteNavigations(t *testing.T) {
	tm := newTeam(t)
	s := tm.replicas[0]
	for _, c := range []struct {
		site, method string
		landing      bool
	}{{"cross-site", "GET", true}, {"same-origin", "GET", false}, {"none", "GET", false}, {"", "GET", false}, {"cross-site", "POST", false}} {
		req, _ := http.NewRequest(c.method, tm.URL+"/needs-you#x", nil)
		if c.site != "" {
			req.Header.Set("Sec-Fetch-Site", c.site)
		}
		rec := &recorder{h: http.Header{}}
		s.SendToSignIn(rec, req, "/needs-you?s=a&b=<c>")
		switch {
		case c.landing && (rec.code != http.StatusOK || !strings.Contains(rec.body.String(), `content="0;url=/needs-you?s=a&amp;b=&lt;c&gt;"`)):
			t.Fatalf("%s %s: %d %s", c.method, c.site, rec.code, rec.body.String())
		case !c.landing && (rec.code != http.StatusSeeOther || rec.h.Get("Location") != s.LoginURL("/needs-you?s=a&b=<c>")):
			t.Fatalf("%s %s: %d to %q", c.method, c.site, rec.code, rec.h.Get("Location"))
		}
	}
}

type recorder struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(code int)        { r.code = code }

// SignInURLFor sends another site's navigation through the landing route
// (the browser may be signed in and only left the Strict cookie out), and
// any other to the sign-in; the landing route goes on only to this server.
func TestSignInURLForAndTheLandingRoute(t *testing.T) {
	tm := newTeam(t)
	s := tm.replicas[0]
	req, _ := http.NewRequest("GET", tm.URL+"/oauth/authorize?client_id=x", nil)
	if got := s.SignInURLFor(req, "/oauth/authorize?client_id=x"); got != s.LoginURL("/oauth/authorize?client_id=x") {
		t.Fatalf("a navigation of this site: %s", got)
	}
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	hop := s.SignInURLFor(req, "/oauth/authorize?client_id=x")
	if hop != tm.URL+"/auth/hop?to=%2Foauth%2Fauthorize%3Fclient_id%3Dx" {
		t.Fatalf("another site's navigation: %s", hop)
	}
	b := tm.browser()
	p, next := b.step("GET", hop, nil)
	if p.Code != http.StatusOK || next != tm.URL+"/oauth/authorize?client_id=x" || p.Hdr.Get("Cache-Control") != "no-store" {
		t.Fatalf("the landing route: %d to %q", p.Code, next)
	}
	for _, to := range []string{"https://evil.example/x", "//evil.example/x", "/\\evil.example"} {
		if _, next := b.step("GET", tm.URL+"/auth/hop?to="+url.QueryEscape(to), nil); next != tm.URL+"/" {
			t.Fatalf("the landing route to %q goes to %q", to, next)
		}
	}
}
