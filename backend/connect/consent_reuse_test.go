package connect

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var checkedConnRE = regexp.MustCompile(`name="connection" value="([^"]*)" checked`)

// A new assistant must not inherit an existing connection by default:
// the preselected option is a new connection, reusing one is an explicit
// choice that says what it carries over, and a reused connection takes the
// new client's name and records the change in its history.
func TestConsentDefaultsToNewConnection(t *testing.T) {
	e := newEnv(t)
	owner := e.browser(true)
	e.login(owner, "", false) // client "Codex"
	old := e.onlyConnection()
	must(t, e.svc.AddProject(bg, old.ID, "proj-a"))
	must(t, e.svc.InviteChannel(bg, old.ID, "chan-1", OwnerID))
	// A pending connection set up for another kind of assistant, with a
	// project already: offered, says so, not preselected.
	pending, err := e.svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	must(t, e.svc.AddProject(bg, pending.ID, "proj-b"))

	newcomer := e.registerNamed("Stranger tool", "http://127.0.0.1:9/cb")
	_, ch := pkcePair("n")
	authURL := e.authURL(authParams{client: newcomer, redirect: "http://127.0.0.1:9/cb", challenge: ch})
	f, err := owner.openConsent(authURL)
	must(t, err)
	m := checkedConnRE.FindStringSubmatch(f.Page)
	if m == nil || m[1] != "new" {
		t.Fatalf("preselected connection = %v, want new; page:\n%s", m, f.Page)
	}
	if _, ok := f.Connections["Keep using: Codex"]; !ok {
		t.Fatalf("reuse option missing: %v", f.Connections)
	}
	for _, s := range []string{"1 project (proj-a)", "1 channel", "all tools", "Use pending: Claude chat<span class=\"muted\"> — carries over 1 project (proj-b)"} {
		if !strings.Contains(f.Page, s) {
			t.Errorf("reuse option does not say it carries over %q", s)
		}
	}
	// Submitting the page as shown creates a new connection with nothing.
	st, _, body := owner.submit(url.Values{"request": {f.Request}, "csrf": {f.CSRF}, "workspace": {"ws-acme"},
		"connection": {m[1]}, "approve": {"yes"}, "action": {"connect"}})
	if st != 303 {
		t.Fatalf("consent: %d %s", st, body)
	}
	cs, _ := e.svc.Connections(bg)
	if len(cs) != 3 {
		t.Fatalf("connections after default consent: %+v", cs)
	}
	// Reusing explicitly renames the connection and writes history.
	other := e.registerNamed("Claude Desktop", "http://127.0.0.1:9/cb")
	if _, err := owner.approve(e.authURL(authParams{client: other, redirect: "http://127.0.0.1:9/cb", challenge: ch}), "Keep using: Codex"); err != nil {
		t.Fatal(err)
	}
	got, err := e.svc.Connection(bg, old.ID)
	must(t, err)
	if got.DisplayName != "Claude Desktop" || len(got.Projects) != 1 {
		t.Fatalf("reused connection: %+v", got)
	}
	acts, _ := e.svc.RecentActivity(bg, old.ID, 10)
	found := false
	for _, a := range acts {
		found = found || a.Decision == "reused" && strings.Contains(a.Detail, "Claude Desktop") && strings.Contains(a.Detail, "Codex")
	}
	if !found {
		t.Fatalf("no history entry for the reuse: %+v", acts)
	}
}

// A client names itself, so its name must not pick a connection: a
// pending connection the owner prepared for Claude is offered to a client
// calling itself "Claude Desktop", but not preselected.
func TestConsentNeverPreselectsByClientName(t *testing.T) {
	e := newEnv(t)
	owner := e.browser(true)
	pending, err := e.svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	must(t, e.svc.AddProject(bg, pending.ID, "proj-a"))
	for _, name := range []string{"Claude Desktop", "claude-code (evil)", "Anthropic helper"} {
		id := e.registerNamed(name, "https://evil.example/cb")
		_, ch := pkcePair("p")
		f, err := owner.openConsent(e.authURL(authParams{client: id, redirect: "https://evil.example/cb", challenge: ch}))
		must(t, err)
		if _, ok := f.Connections["Use pending: Claude chat"]; !ok {
			t.Fatalf("%s: the pending connection is not offered: %v", name, f.Connections)
		}
		if m := checkedConnRE.FindAllStringSubmatch(f.Page, -1); len(m) != 1 || m[0][1] != "new" {
			t.Errorf("%s: preselected %v, want only a new connection", name, m)
		}
	}
}

// Taking a connection over ("Keep using") signs out the assistant that
// held it: its access token is refused at once and its refresh token no
// longer refreshes; the consent page said so beforehand, and the history
// records it.
func TestKeepUsingSignsOutThePreviousAssistant(t *testing.T) {
	e := newEnv(t)
	owner := e.browser(true)
	old := e.login(owner, "", false) // client "Codex", a new connection
	conn := e.onlyConnection()
	must(t, e.svc.AddProject(bg, conn.ID, "proj-a"))
	if _, err := e.db.Exec(`UPDATE connect_connections SET display_name = 'Codex one' WHERE id = ?`, conn.ID); err != nil {
		t.Fatal(err)
	}
	if st, res := e.callTool(old.access, "list_granted_resources", nil); st != 200 || res != "OK" {
		t.Fatalf("the first assistant before the takeover: %d %s", st, res)
	}
	// A second code the first assistant has not redeemed yet.
	second := e.login(owner, "", true)
	secondConn := ""
	cs, _ := e.svc.Connections(bg)
	for _, c := range cs {
		if c.ID != conn.ID {
			secondConn = c.ID
		}
	}

	other := e.registerNamed("Claude Desktop", "http://127.0.0.1:9/cb")
	verifier, ch := pkcePair("k")
	authURL := e.authURL(authParams{client: other, redirect: "http://127.0.0.1:9/cb", challenge: ch})
	f, err := owner.openConsent(authURL)
	must(t, err)
	if !strings.Contains(f.Page, "Keep using: Codex one") || !strings.Contains(f.Page, "signs out the assistant using it now") {
		t.Fatalf("the consent page does not say taking over signs the holder out:\n%s", f.Page)
	}
	loc, err := owner.approve(authURL, "Keep using: Codex one")
	must(t, err)

	if _, res := e.callTool(old.access, "list_granted_resources", nil); res == "OK" {
		t.Error("the previous assistant's access token still works after the takeover")
	}
	if st, out := e.tokenReq(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old.refresh}, "client_id": {old.client}}); st != 400 || !strings.Contains(out["error_description"].(string), "another assistant") {
		t.Errorf("the previous assistant's refresh: %d %v, want invalid_grant naming the takeover", st, out)
	}
	// The new assistant's sign-in works.
	st, out := e.tokenReq(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "client_id": {other},
		"redirect_uri": {"http://127.0.0.1:9/cb"}, "code_verifier": {verifier}})
	if st != 200 {
		t.Fatalf("the new assistant's code: %d %v", st, out)
	}
	if _, res := e.callTool(out["access_token"].(string), "list_granted_resources", nil); res != "OK" {
		t.Errorf("the new assistant's token: %s", res)
	}
	// A connection not taken over keeps its sign-in.
	if st, out := e.tokenReq(second.exchange()); st != 200 || secondConn == "" {
		t.Errorf("another connection's code after the takeover: %d %v", st, out)
	}
	acts, _ := e.svc.RecentActivity(bg, conn.ID, 10)
	found := false
	for _, a := range acts {
		found = found || a.Decision == "reused" && strings.Contains(a.Detail, "signed out")
	}
	if !found {
		t.Errorf("the history does not say the previous assistant was signed out: %+v", acts)
	}
}
