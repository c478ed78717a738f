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
