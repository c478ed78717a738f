package connecttest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Client is a hand-written MCP host: it reads everything from the server
// (the 401 header, then the two metadata documents) and builds nothing by
// convention, as a careful remote host does.
type Client struct {
	HTTP     *http.Client
	Resource string // the server address the user pasted
	Browser  *Browser
	Redirect string // loopback callback; never listened on, the browser stops at it
	Name     string
	Scope    string // "" = what the server advertises for the resource

	clientID string
	issuer   string
	token    string
}

// Step is one timed round trip of discovery.
type Step struct {
	Name string
	D    time.Duration
}

// Token is the token endpoint's answer.
type Token struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
	Error        string `json:"error"`
}

// ClientID is the id from dynamic registration (after Discover).
func (c *Client) ClientID() string { return c.clientID }

// Discover runs the five round trips of discovery — the 401, the resource
// metadata, the AS metadata, authorize (consent page and approval) and
// token — registering the client (untimed) the first time. It returns the
// tokens and each step's time.
func (c *Client) Discover(ctx context.Context) (Token, []Step, error) {
	var steps []Step
	t0 := time.Now()
	mark := func(name string) { steps = append(steps, Step{name, time.Since(t0)}); t0 = time.Now() }

	status, hdr, _, err := c.rpc(ctx, "", "tools/call", map[string]any{"name": "list_granted_resources", "arguments": map[string]any{}})
	if err != nil {
		return Token{}, nil, err
	}
	if status != http.StatusUnauthorized {
		return Token{}, nil, fmt.Errorf("unauthenticated tools/call: status %d, want 401", status)
	}
	ch, err := oauthex.ParseWWWAuthenticate(hdr.Values("WWW-Authenticate"))
	if err != nil || len(ch) == 0 || ch[0].Params["resource_metadata"] == "" {
		return Token{}, nil, fmt.Errorf("401 without resource_metadata: %q", hdr.Get("WWW-Authenticate"))
	}
	mark("401 challenge")

	var prm oauthex.ProtectedResourceMetadata
	if err := c.getJSON(ctx, ch[0].Params["resource_metadata"], &prm); err != nil {
		return Token{}, nil, err
	}
	if prm.Resource != c.Resource || len(prm.AuthorizationServers) == 0 {
		return Token{}, nil, fmt.Errorf("resource metadata names %q (want %q) with servers %v", prm.Resource, c.Resource, prm.AuthorizationServers)
	}
	mark("resource metadata")

	c.issuer = prm.AuthorizationServers[0]
	var asm struct {
		oauthex.AuthServerMeta
		IssSupported bool `json:"authorization_response_iss_parameter_supported"`
	}
	if err := c.getJSON(ctx, c.issuer+"/.well-known/oauth-authorization-server", &asm); err != nil {
		return Token{}, nil, err
	}
	if asm.Issuer != c.issuer || !asm.IssSupported {
		return Token{}, nil, fmt.Errorf("AS metadata issuer %q (want %q), iss supported %v", asm.Issuer, c.issuer, asm.IssSupported)
	}
	mark("AS metadata")

	if c.clientID == "" {
		if err := c.register(ctx, asm.RegistrationEndpoint); err != nil {
			return Token{}, nil, err
		}
		t0 = time.Now()
	}
	verifier := rand.Text() + rand.Text()
	sum := sha256.Sum256([]byte(verifier))
	state := rand.Text()
	scope := c.Scope
	if scope == "" {
		scope = "osfoundry:read osfoundry:write"
	}
	q := url.Values{"response_type": {"code"}, "client_id": {c.clientID}, "redirect_uri": {c.Redirect}, "scope": {scope},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"state": {state}, "resource": {prm.Resource}}
	back, err := c.Browser.Approve(asm.AuthorizationEndpoint+"?"+q.Encode(), "", "")
	if err != nil {
		return Token{}, nil, err
	}
	if back.Query().Get("state") != state || back.Query().Get("iss") != c.issuer {
		return Token{}, nil, fmt.Errorf("authorization response %s: state or iss wrong", back)
	}
	mark("authorize")

	form := url.Values{"grant_type": {"authorization_code"}, "code": {back.Query().Get("code")}, "client_id": {c.clientID},
		"redirect_uri": {c.Redirect}, "code_verifier": {verifier}, "resource": {prm.Resource}}
	resp, err := c.HTTP.PostForm(asm.TokenEndpoint, form)
	if err != nil {
		return Token{}, nil, fmt.Errorf("token: %w", err)
	}
	defer resp.Body.Close()
	var tok Token
	json.NewDecoder(resp.Body).Decode(&tok)
	if resp.StatusCode != http.StatusOK || tok.AccessToken == "" {
		return Token{}, nil, fmt.Errorf("token: %s %s", resp.Status, tok.Error)
	}
	mark("token")
	c.token = tok.AccessToken
	return tok, steps, nil
}

func (c *Client) register(ctx context.Context, endpoint string) error {
	name := c.Name
	if name == "" {
		name = "connecttest"
	}
	body, _ := json.Marshal(oauthex.ClientRegistrationMetadata{ClientName: name, RedirectURIs: []string{c.Redirect},
		GrantTypes: []string{"authorization_code", "refresh_token"}, TokenEndpointAuthMethod: "none"})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("registering: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != http.StatusCreated || out.ClientID == "" {
		return fmt.Errorf("registering: %s", resp.Status)
	}
	c.clientID = out.ClientID
	return nil
}

func (c *Client) getJSON(ctx context.Context, u string, v any) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// CallResult is a tools/call outcome as the wire carried it.
type CallResult struct {
	Status  int
	IsError bool
	Text    string
}

// Call runs one tools/call with the discovered token.
func (c *Client) Call(ctx context.Context, tool string, args any) (CallResult, error) {
	status, _, body, err := c.rpc(ctx, c.token, "tools/call", map[string]any{"name": tool, "arguments": args})
	if err != nil {
		return CallResult{}, err
	}
	var out struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	json.Unmarshal(body, &out)
	r := CallResult{Status: status, IsError: out.Result.IsError}
	if len(out.Result.Content) > 0 {
		r.Text = out.Result.Content[0].Text
	}
	return r, nil
}

func (c *Client) rpc(ctx context.Context, token, method string, params any) (int, http.Header, []byte, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.Resource, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b, err
}
