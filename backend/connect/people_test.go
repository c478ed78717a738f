package connect

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// cookiePeople stands for the team server's OpenID Connect sign-in: the
// person is whoever the browser's "team" cookie names, and signing in
// happens at an identity provider that comes back to continueAt.
type cookiePeople struct{}

func (cookiePeople) Approver(r *http.Request) (Approver, bool) {
	c, err := r.Cookie("team")
	if err != nil || c.Value == "" {
		return Approver{}, false
	}
	if c.Value == "impostor" { // a sign-in that hands over the local owner's id
		return Approver{ID: OwnerID, Name: "Owner", Session: hashSecret("team-impostor")}, true
	}
	return Approver{ID: "person-" + c.Value, Name: strings.ToUpper(c.Value[:1]) + c.Value[1:], Session: hashSecret("team-" + c.Value)}, true
}

func (cookiePeople) SignInURL(_ *http.Request, continueAt string) string {
	return "https://idp.example/login?return=" + url.QueryEscape(continueAt)
}

// With People plugged in, nobody signed in is sent to its sign-in and
// back to the very request; the person it names is a user from first
// sight, approves with the roles given to them, and is the connection's
// approver; another person cannot send their consent form.
func TestConsentWithPluggedInPeople(t *testing.T) {
	e := newEnvWith(t, ServerConfig{People: cookiePeople{}})
	b := e.browser(false)
	g := &grantFlow{redirect: "http://127.0.0.1:9/cb"}
	g.client = e.register(g.redirect)
	var challenge string
	g.verifier, challenge = pkcePair("p")
	status, _, h := b.get(e.authURL(authParams{client: g.client, redirect: g.redirect, challenge: challenge}))
	loc, _ := url.Parse(h.Get("Location"))
	if status != http.StatusSeeOther || loc == nil || loc.Host != "idp.example" {
		t.Fatalf("authorize while signed out: %d to %q, want 303 to the identity provider", status, h.Get("Location"))
	}
	back := loc.Query().Get("return")
	if !strings.HasPrefix(back, authorizePath+"?request=authz_") {
		t.Fatalf("the sign-in returns to %q, want the waiting request", back)
	}

	signIn := func(b *browser, who string) {
		u, _ := url.Parse(e.srv.BaseURL())
		b.c.Jar.SetCookies(u, []*http.Cookie{{Name: "team", Value: who, Path: "/"}})
	}
	signIn(b, "ada")
	if f, err := b.openConsent(e.srv.BaseURL() + back); err != nil || len(f.Workspaces) != 0 {
		t.Fatalf("consent of a person without a role: %v; workspaces %v, want none", err, f)
	}
	// Ada is a user now (first sight); give her a role and come back.
	must(t, e.svc.SetRole(bg, "person-ada", "ws-acme", "", "editor"))
	f, err := b.openConsent(e.srv.BaseURL() + back)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Workspaces) != 1 || f.Workspaces[0] != "ws-acme" {
		t.Fatalf("workspaces offered to Ada: %v", f.Workspaces)
	}
	form := url.Values{"request": {f.Request}, "csrf": {f.CSRF}, "workspace": {"ws-acme"}, "connection": {"new"},
		"approve": {"yes"}, "action": {"connect"}}

	bob := e.browser(false)
	signIn(bob, "bob")
	if status, _, _ := bob.submit(form); status != http.StatusForbidden {
		t.Fatalf("Bob sending Ada's consent form: %d, want 403", status)
	}

	status, location, body := b.submit(form)
	if status != http.StatusSeeOther {
		t.Fatalf("Ada's consent: %d %s", status, body)
	}
	redirect, _ := url.Parse(location)
	g.code = redirect.Query().Get("code")
	if status, out := e.tokenReq(g.exchange()); status != http.StatusOK {
		t.Fatalf("code exchange: %d %v", status, out)
	}
	if c := e.onlyConnection(); c.Approver != "person-ada" || c.Workspace != "ws-acme" {
		t.Fatalf("connection approved by %q in %q, want person-ada in ws-acme", c.Approver, c.Workspace)
	}

	// Another sign-in can never act as the local owner, admin of all.
	impostor := e.browser(false)
	signIn(impostor, "impostor")
	status, _, h = impostor.get(e.authURL(authParams{client: g.client, redirect: g.redirect, challenge: challenge}))
	if status != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "https://idp.example/") {
		t.Fatalf("a sign-in naming the local owner: %d to %q, want to be sent to sign in", status, h.Get("Location"))
	}
}
