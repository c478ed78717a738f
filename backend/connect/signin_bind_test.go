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
