package pgconnect_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
)

// Bytes PostgreSQL cannot keep in text (a NUL, invalid UTF-8) find
// nothing, as they do on the desktop, and never become a 500: in ids,
// in a client's state (which comes back byte for byte), in the
// connection picked on the consent page, in a tool's arguments.
func TestHostileBytesThroughTheBalancer(t *testing.T) {
	tm := newTeam(t, connect.ServerConfig{})
	b := tm.signedIn()
	const redirect = "http://127.0.0.1:9/cb"
	_, client := tm.register(redirect)
	get := func(u string) (int, string) {
		resp, err := b.Client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, bad := range []string{"%00", "%FF%FE", "client_%00x"} {
		if status, page := get(tm.base + "/oauth/authorize?response_type=code&client_id=" + bad); status != http.StatusBadRequest ||
			!strings.Contains(page, "Unknown assistant") {
			t.Errorf("authorize for client %s: %d", bad, status)
		}
		if status, _ := get(tm.base + "/oauth/authorize?request=" + bad); status != http.StatusBadRequest {
			t.Errorf("continuing request %s: %d, want 400", bad, status)
		}
		status, out := tm.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {mustUnescape(t, bad)}, "code": {"x"}, "code_verifier": {"y"}})
		if status != http.StatusUnauthorized || out["error"] != "invalid_client" {
			t.Errorf("token for client %s: %d %v", bad, status, out)
		}
	}

	// A state of any bytes comes back as it was sent.
	verifier, challenge := pkce("h")
	state := "\xff\x00st\u202e"
	authURL := tm.base + "/oauth/authorize?" + url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {state}}.Encode()
	f, err := b.OpenConsent(authURL)
	if err != nil {
		t.Fatal(err)
	}
	// A connection no row can name is "no longer usable", not a failure.
	form := url.Values{"request": {f.Request}, "csrf": {f.CSRF}, "workspace": {"ws-acme"},
		"connection": {"conn_\x00\xff"}, "approve": {"yes"}, "action": {"connect"}}
	req, _ := http.NewRequest(http.MethodPost, tm.base+"/oauth/authorize", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", tm.base)
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "can no longer be used") {
		t.Fatalf("consent picking an impossible connection: %d, want the page again saying so:\n%s", resp.StatusCode, page)
	}
	loc, err := b.Approve(tm.base+"/oauth/authorize?request="+url.QueryEscape(f.Request), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := loc.Query().Get("state"); got != state {
		t.Fatalf("state came back as %q, want %q", got, state)
	}
	status, out := tm.token(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "client_id": {client},
		"redirect_uri": {redirect}, "code_verifier": {verifier}})
	if status != http.StatusOK {
		t.Fatalf("code exchange: %d %v", status, out)
	}
	access := out["access_token"].(string)
	for _, project := range []string{"\x00", "p\xff"} {
		if status, ok := tm.callWith(access, "list_project_resources", map[string]any{"project_id": project}); status != http.StatusOK || ok {
			t.Errorf("listing project %q: %d ok=%v, want a refusal", project, status, ok)
		}
	}
	if status, ok := tm.callWith(access, "list_granted_resources", map[string]any{}); status != http.StatusOK || !ok {
		t.Errorf("a plain call after the hostile ones: %d ok=%v", status, ok)
	}
	// The refusals were decisions, not failures to read the database.
	acts, err := tm.svcs[0].RecentActivity(bg, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		if a.Tool == "list_project_resources" && !strings.HasPrefix(a.Decision, "denied") {
			t.Errorf("a call on an impossible project was logged %q (%s), want denied", a.Decision, a.Detail)
		}
	}
}

func mustUnescape(t *testing.T, s string) string {
	v, err := url.QueryUnescape(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
