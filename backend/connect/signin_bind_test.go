package connect

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// Anyone can start an authorization request (a plain GET); the owner's
// sign-in link must continue the request the owner's browser started, and
// never land by itself on one it did not start.
func TestSignInGoesToTheRequestThisBrowserStarted(t *testing.T) {
	e := newEnv(t)
	owner := e.browser(false)
	mine := e.registerNamed("Codex", "http://127.0.0.1:9/cb")
	_, ch := pkcePair("s")
	if st, page, _ := owner.get(e.authURL(authParams{client: mine, redirect: "http://127.0.0.1:9/cb", challenge: ch})); st != 401 || !strings.Contains(page, "Sign in to approve") {
		t.Fatalf("unsigned authorize: %d %s", st, page)
	}
	// Someone else starts a request afterwards, without the owner's cookies.
	e.clock.Add(2 * time.Minute)
	evil := e.registerNamed("Evil helper", "https://evil.example/cb")
	resp, err := http.Get(e.authURL(authParams{client: evil, redirect: "https://evil.example/cb", challenge: ch}))
	must(t, err)
	resp.Body.Close()

	link, _ := e.srv.SignInURL(bg, OwnerID, 0)
	st, _, h := owner.get(link)
	next := h.Get("Location")
	if st != 303 || !strings.HasPrefix(next, authorizePath+"?request=") {
		t.Fatalf("sign-in in the browser that started a request: %d %q", st, next)
	}
	f, err := owner.openConsent(e.srv.BaseURL() + next)
	must(t, err)
	if !strings.Contains(f.Page, "<strong><bdi>Codex</bdi></strong>") || strings.Contains(f.Page, "Evil helper") {
		t.Fatalf("sign-in continued another request:\n%s", f.Page)
	}

	// A browser that started nothing is never taken to a request: it sees
	// the waiting ones to pick from, with who, where and how old.
	e.clock.Add(3 * time.Minute)
	stranger := e.browser(false)
	link2, _ := e.srv.SignInURL(bg, OwnerID, 0)
	st, page, h := stranger.get(link2)
	if st != 200 || h.Get("Location") != "" {
		t.Fatalf("sign-in without a request of its own: %d %q", st, h.Get("Location"))
	}
	for _, s := range []string{"Evil helper", "evil.example", "3 min ago", "not started in this browser"} {
		if !strings.Contains(page, s) {
			t.Errorf("pending request list lacks %q:\n%s", s, page)
		}
	}
	if strings.Contains(page, " checked") || strings.Contains(page, "http-equiv") {
		t.Fatalf("a request is preselected:\n%s", page)
	}

	// A page that embeds the authorize URL (<img>, fetch) starts nothing:
	// only a top-level visit does.
	before := e.count("connect_auth_requests")
	req, _ := http.NewRequest(http.MethodGet, e.authURL(authParams{client: evil, redirect: "https://evil.example/cb", challenge: ch}), nil)
	req.Header.Set("Sec-Fetch-Dest", "image")
	req.Header.Set("Sec-Fetch-Mode", "no-cors")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err = noFollow.Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Set-Cookie") != "" || e.count("connect_auth_requests") != before {
		t.Fatalf("authorize as an image: %d, cookie %q, requests %d → %d", resp.StatusCode, resp.Header.Get("Set-Cookie"), before, e.count("connect_auth_requests"))
	}
}

// A web page can make the owner's browser visit the authorize address
// (a top-level navigation), but that must not mark the request as started
// in that browser: the owner's next sign-in would otherwise land on the
// page's request, its assistant name chosen to look like the owner's.
func TestAForeignPageCannotPlantTheBrowserMark(t *testing.T) {
	e := newEnv(t)
	evil := e.registerNamed("Claude", "https://evil.example/cb")
	_, ch := pkcePair("f")
	evilURL := e.authURL(authParams{client: evil, redirect: "https://evil.example/cb", challenge: ch})
	visit := func(b *browser, site string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, evilURL, nil)
		req.Header.Set("Sec-Fetch-Site", site)
		req.Header.Set("Sec-Fetch-Mode", "navigate")
		req.Header.Set("Sec-Fetch-Dest", "document")
		resp, err := b.c.Do(req)
		must(t, err)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the navigation: %d", resp.StatusCode)
		}
	}
	signIn := func(b *browser) (int, string, string) {
		t.Helper()
		link, _ := e.srv.SignInURL(bg, OwnerID, 0)
		st, page, h := b.get(link)
		return st, page, h.Get("Location")
	}
	for _, site := range []string{"cross-site", "same-site"} {
		// A browser that never signed in here, navigated by another page.
		fresh := e.browser(false)
		visit(fresh, site)
		if st, page, next := signIn(fresh); st != 200 || next != "" || !strings.Contains(page, "not started in this browser") {
			t.Errorf("%s, fresh browser: sign-in went to %q (%d); want the list of waiting requests, none its own:\n%s", site, next, st, page)
		}
		// A browser the owner signed in from before (its session since
		// ended), navigated by another page.
		known := e.browser(true)
		if _, err := e.db.Exec(`DELETE FROM connect_sessions WHERE kind = 'session'`); err != nil {
			t.Fatal(err)
		}
		visit(known, site)
		if st, _, next := signIn(known); st != 200 || next != "" {
			t.Errorf("%s, known browser: sign-in went to %q (%d); want the list", site, next, st)
		}
		e.db.Exec(`DELETE FROM connect_auth_requests`)
	}
	// The owner's own visit (the assistant opened the browser) still
	// continues after sign-in, in a browser old or new.
	owner := e.browser(false)
	visit(owner, "none")
	if st, _, next := signIn(owner); st != 303 || !strings.HasPrefix(next, authorizePath+"?request=") {
		t.Errorf("the owner's own request: sign-in %d %q, want it continued", st, next)
	}
}
