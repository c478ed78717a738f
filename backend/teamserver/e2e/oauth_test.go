package e2e_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Discovery, registration, consent, code, refresh and the refusals of
// wrong tokens, each step pinned so one replica continues what the other
// began.
func oauthAcrossReplicas(t *testing.T, c *cluster) {
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	code, _, body := c.send("r1", "GET", "/.well-known/oauth-protected-resource/mcp", "", nil)
	if json.Unmarshal(body, &prm); code != http.StatusOK || prm.Resource != c.lb.URL+"/mcp" || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != c.lb.URL {
		t.Fatalf("resource metadata on r1: %d %s", code, body)
	}
	var asm struct {
		Issuer        string `json:"issuer"`
		TokenEndpoint string `json:"token_endpoint"`
		Registration  string `json:"registration_endpoint"`
	}
	code, _, body = c.send("r2", "GET", "/.well-known/oauth-authorization-server", "", nil)
	if json.Unmarshal(body, &asm); code != http.StatusOK || asm.Issuer != c.lb.URL || asm.TokenEndpoint != c.lb.URL+"/oauth/token" || asm.Registration != c.lb.URL+"/oauth/register" {
		t.Fatalf("authorization server metadata on r2: %d %s", code, body)
	}

	a := c.connectAs(t, c.bob, "bob", "Codex", "osfoundry:read osfoundry:write")
	for _, to := range []string{"r1", "r2"} {
		if text, isErr := a.result(to, "list_note_tabs", map[string]any{"note_id": "note-a1"}); isErr || outcome(text, false) != "OK Q3 launch checklist" {
			t.Fatalf("a call on %s: %s", to, text)
		}
	}
	// Refresh on r1 what r2 issued: a new pair, and the new access token works on r2.
	code, out := c.token("r1", url.Values{"grant_type": {"refresh_token"}, "client_id": {a.clientID}, "refresh_token": {a.refresh}})
	if code != http.StatusOK || out["access_token"] == nil || out["refresh_token"] == a.refresh {
		t.Fatalf("refresh on r1: %d %v", code, out)
	}
	old := a.refresh
	a.access, a.refresh = out["access_token"].(string), out["refresh_token"].(string)
	if text, isErr := a.result("r2", "list_note_tabs", map[string]any{"note_id": "note-a1"}); isErr {
		t.Fatalf("the refreshed token on r2: %s", text)
	}

	// Wrong tokens.
	noToken, hdr, _ := a.rpc("r1", "", "tools/call", map[string]any{"name": "list_granted_resources", "arguments": map[string]any{}})
	if www := hdr.Get("WWW-Authenticate"); noToken != http.StatusUnauthorized || !strings.Contains(www, "resource_metadata=") || strings.Contains(www, "error=") {
		t.Fatalf("a call without a token: %d %q", noToken, www)
	}
	for name, tok := range map[string]string{"made up": "osf_at_madeup", "a refresh token as access": a.refresh, "another's in a header": a.access + "x"} {
		status, hdr, _ := a.rpc("r2", tok, "tools/call", map[string]any{"name": "list_granted_resources", "arguments": map[string]any{}})
		if status != http.StatusUnauthorized || !strings.Contains(hdr.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("%s token: %d %q", name, status, hdr.Get("WWW-Authenticate"))
		}
	}
	if code, out := c.token("r2", url.Values{"grant_type": {"refresh_token"}, "client_id": {"someone-else"}, "refresh_token": {a.refresh}}); code < 400 || code >= 500 {
		t.Fatalf("a refresh token under another client id: %d %v", code, out)
	}
	// Reusing the rotated refresh token (on r2) revokes the family on
	// every replica: the newest access token stops working on r1.
	if code, out := c.token("r2", url.Values{"grant_type": {"refresh_token"}, "client_id": {a.clientID}, "refresh_token": {old}}); code != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Fatalf("a reused refresh token: %d %v", code, out)
	}
	if text, _ := a.result("r1", "list_note_tabs", map[string]any{"note_id": "note-a1"}); !strings.HasPrefix(text, "HTTP 401") {
		t.Fatalf("after the reuse, the family's access token: %s", text)
	}
	// The code was redeemed on r2: replaying it on r1 is refused too.
	if code, out := c.token("r1", url.Values{"grant_type": {"authorization_code"}, "client_id": {a.clientID}, "code": {a.code},
		"code_verifier": {a.verifier}, "redirect_uri": {assistantRedirect}}); code != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Fatalf("a replayed code on the other replica: %d %v", code, out)
	}
}
