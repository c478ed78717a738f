package connect

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// Registration refuses redirect URIs that read one way and go another, and
// cleans names so the consent page cannot be spoofed with them.
func TestRegistrationRefusesOddRedirectsAndCleansNames(t *testing.T) {
	e := newEnv(t)
	post := func(m map[string]any) (int, map[string]any) {
		body, _ := json.Marshal(m)
		resp, err := http.Post(e.srv.BaseURL()+registerPath, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	for _, bad := range []string{
		"http://evil.com@127.0.0.1/cb", "https://user:pw@good.example/cb", "http://127.0.0.1:99999/cb", "http://127.0.0.1:0/cb",
		"https://*.example.com/cb", "https://good.example/*", "http://localhost:*/cb", "https://exa mple.com/cb",
		"https://good.example/" + strings.Repeat("p", 3000),
	} {
		if st, out := post(map[string]any{"client_name": "x", "redirect_uris": []string{bad}}); st != 400 || out["error"] != "invalid_redirect_uri" {
			t.Errorf("registering %q: %d %v, want 400 invalid_redirect_uri", bad, st, out)
		}
	}
	many := make([]string, 11)
	for i := range many {
		many[i] = "http://127.0.0.1:9/cb"
	}
	if st, _ := post(map[string]any{"redirect_uris": many}); st != 400 {
		t.Errorf("11 redirect URIs: %d, want 400", st)
	}
	long := strings.Repeat("a", 99) + "é€"
	for _, c := range []struct{ in, want string }{
		{"Claude\u202Eedoc\u202C", "Claudeedoc"},
		{"Co\x00dex\x1b[31m", "Codex[31m"},
		{"Zero\u200Bwidth\u2066x\u2069", "Zerowidthx"},
		{"  spaced\n\tname  ", "spaced name"},
		{long, strings.Repeat("a", 99) + "é"},
		{"\u202E\u0000", "MCP client"},
	} {
		st, out := post(map[string]any{"client_name": c.in, "redirect_uris": []string{"http://127.0.0.1:9/cb"}})
		if st != 201 {
			t.Fatalf("registering name %q: %d %v", c.in, st, out)
		}
		got, err := e.svc.client(bg, out["client_id"].(string))
		must(t, err)
		if got.Name != c.want || !utf8.ValidString(got.Name) || out["client_name"] != c.want {
			t.Errorf("name %q stored as %q (answer %q), want %q", c.in, got.Name, out["client_name"], c.want)
		}
	}
	// The consent page isolates the name from the text around it and says
	// it is the assistant's own claim.
	id := e.registerNamed("Claude", "http://127.0.0.1:9/cb")
	_, ch := pkcePair("r")
	f, err := e.browser(true).openConsent(e.authURL(authParams{client: id, redirect: "http://127.0.0.1:9/cb", challenge: ch}))
	must(t, err)
	if !strings.Contains(f.Page, "<strong><bdi>Claude</bdi></strong>") || !strings.Contains(f.Page, "the name the assistant gave itself") {
		t.Fatalf("consent page shows the name unisolated:\n%s", f.Page)
	}
	// A name stored before registration cleaned names is cleaned when shown.
	if _, err := e.db.Exec(`UPDATE connect_clients SET name = ? WHERE id = ?`, "Cl\u202Eaude\x00", id); err != nil {
		t.Fatal(err)
	}
	f, err = e.browser(true).openConsent(e.authURL(authParams{client: id, redirect: "http://127.0.0.1:9/cb", challenge: ch}))
	must(t, err)
	if !strings.Contains(f.Page, "<strong><bdi>Claude</bdi></strong>") {
		t.Fatalf("a stored name is shown uncleaned:\n%s", f.Page)
	}
}
