package pgconnect_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/connect/pgconnect"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
	"github.com/osfoundry/desktop/backend/tools"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var bg = context.Background()

// workspaceRes is the smallest Resources: no tools of its own (the
// endpoint's built-in ones remain) and one workspace for the consent page.
type workspaceRes struct{}

func (workspaceRes) Tools() []tools.Tool { return nil }
func (workspaceRes) CallTarget(context.Context, string, json.RawMessage) (connect.Target, error) {
	return connect.Target{}, nil
}
func (workspaceRes) ProjectResources(context.Context, string) ([]connect.Resource, error) {
	return nil, nil
}
func (workspaceRes) Workspaces(context.Context) ([]connect.Workspace, error) {
	return []connect.Workspace{{ID: "ws-acme", Name: "Acme"}}, nil
}

// team is two endpoint replicas over one PostgreSQL database behind a
// balancer that sends every request to the other replica than the one
// before, as haproxy's round robin does with one client.
type team struct {
	t        *testing.T
	base     string // the balancer's origin: every replica's public URL
	replicas [2]*connect.Server
	svcs     [2]*connect.Service

	mu   sync.Mutex
	next int
	log  []served
}

// served is one request as the balancer routed it.
type served struct {
	method, path, grant string
	replica             int
}

func newTeam(t *testing.T, cfg connect.ServerConfig) *team {
	t.Helper()
	return newTeamOn(t, pgtest.Database(t), cfg)
}

// newTeamOn starts the replicas on the database at url.
func newTeamOn(t *testing.T, url string, cfg connect.ServerConfig) *team {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tm := &team{t: t, base: "http://" + ln.Addr().String()}
	cfg.PublicURL = tm.base
	for i := range tm.replicas {
		// Each replica has its own pool, as two processes would.
		pool, err := pgdb.Open(bg, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		svc, err := pgconnect.NewService(bg, pool, connect.Options{Resources: workspaceRes{}})
		if err != nil {
			t.Fatal(err)
		}
		srv, err := connect.NewServer(svc, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start("127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close(bg) })
		tm.replicas[i], tm.svcs[i] = srv, svc
	}
	proxy := &httputil.ReverseProxy{Rewrite: tm.route}
	hs := &http.Server{Handler: proxy}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return tm
}

// route alternates replicas and notes which one got the request. The Host
// stays the public one, as behind a real balancer.
func (tm *team) route(pr *httputil.ProxyRequest) {
	tm.mu.Lock()
	i := tm.next
	tm.next = 1 - i
	s := served{method: pr.In.Method, path: pr.In.URL.Path, replica: i}
	if pr.In.URL.Path == "/oauth/token" && pr.In.Body != nil {
		body, _ := io.ReadAll(pr.In.Body)
		form, _ := url.ParseQuery(string(body))
		s.grant = form.Get("grant_type")
		pr.Out.Body = io.NopCloser(bytes.NewReader(body))
		pr.Out.ContentLength = int64(len(body))
	}
	tm.log = append(tm.log, s)
	tm.mu.Unlock()
	addr, _ := url.Parse("http://" + tm.replicas[i].Addr())
	pr.SetURL(addr)
	pr.SetXForwarded()
	pr.Out.Host = pr.In.Host
}

// redeemedElsewhere checks that every code was redeemed right after its
// consent, on the other replica.
func (tm *team) redeemedElsewhere() {
	tm.t.Helper()
	log, n := tm.served(), 0
	for i, s := range log {
		if s.grant != "authorization_code" {
			continue
		}
		n++
		prev := log[i-1]
		if prev.method != http.MethodPost || prev.path != "/oauth/authorize" || prev.replica == s.replica {
			tm.t.Fatalf("a code was redeemed on replica %d after %s %s on replica %d; want the consent on the other replica",
				s.replica, prev.method, prev.path, prev.replica)
		}
	}
	if n == 0 {
		tm.t.Fatal("no code was redeemed")
	}
}

func (tm *team) served() []served {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return append([]served(nil), tm.log...)
}

// signedIn is the owner's browser, signed in through the balancer.
func (tm *team) signedIn() *connecttest.Browser {
	tm.t.Helper()
	link, err := tm.replicas[1].SignInURL(bg, connect.OwnerID, 0)
	if err != nil {
		tm.t.Fatal(err)
	}
	b := connecttest.NewBrowser(tm.base)
	if err := b.SignIn(link); err != nil {
		tm.t.Fatal(err)
	}
	return b
}

func (tm *team) register(redirect string) (int, string) {
	tm.t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": "Codex", "redirect_uris": []string{redirect}})
	resp, err := http.Post(tm.base+"/oauth/register", "application/json", bytes.NewReader(body))
	if err != nil {
		tm.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out.ClientID
}

func (tm *team) token(form url.Values) (int, map[string]any) {
	tm.t.Helper()
	resp, err := http.PostForm(tm.base+"/oauth/token", form)
	if err != nil {
		tm.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// call is one tools/call with token: the HTTP status and whether the
// tool answered without error.
func (tm *team) call(token, tool string) (int, bool) {
	tm.t.Helper()
	return tm.callWith(token, tool, map[string]any{})
}

func (tm *team) callWith(token, tool string, args map[string]any) (int, bool) {
	tm.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	req, _ := http.NewRequest(http.MethodPost, tm.base+connect.ResourcePath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tm.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out.Result != nil && !out.Result.IsError
}

func pkce(seed string) (verifier, challenge string) {
	verifier = strings.Repeat(seed, 64)[:64]
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

func (tm *team) authURL(client, redirect, challenge string) string {
	return tm.base + "/oauth/authorize?" + url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"st-1"}, "scope": {tools.ScopeRead}}.Encode()
}

// login registers, consents and redeems the code through the balancer:
// the consent POST and the code's redemption reach different replicas.
func (tm *team) login(b *connecttest.Browser) (client, access, refresh string) {
	tm.t.Helper()
	const redirect = "http://127.0.0.1:9/cb"
	status, client := tm.register(redirect)
	if status != http.StatusCreated {
		tm.t.Fatalf("register: %d", status)
	}
	verifier, challenge := pkce("v")
	loc, err := b.Approve(tm.authURL(client, redirect, challenge), "", "")
	if err != nil {
		tm.t.Fatal(err)
	}
	if loc.Query().Get("iss") != tm.base || loc.Query().Get("state") != "st-1" {
		tm.t.Fatalf("authorization response %s lacks iss or state", loc)
	}
	status, out := tm.token(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "client_id": {client},
		"redirect_uri": {redirect}, "code_verifier": {verifier}})
	if status != http.StatusOK {
		tm.t.Fatalf("code exchange: %d %v", status, out)
	}
	return client, out["access_token"].(string), out["refresh_token"].(string)
}

func (tm *team) refresh(client, rt string) (int, map[string]any) {
	return tm.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "client_id": {client}})
}

// The OAuth flow across two replicas: register, authorize and consent,
// redeem, call, refresh, each request on the other replica than the one
// before; reusing a rotated refresh token on either replica revokes the
// family everywhere.
func TestOAuthFlowAcrossTwoReplicas(t *testing.T) {
	tm := newTeam(t, connect.ServerConfig{})
	b := tm.signedIn()
	client, access, rt1 := tm.login(b)

	tm.redeemedElsewhere()
	if status, ok := tm.call(access, "list_granted_resources"); status != http.StatusOK || !ok {
		t.Fatalf("a call with the new access token: %d ok=%v", status, ok)
	}
	status, out := tm.refresh(client, rt1)
	if status != http.StatusOK {
		t.Fatalf("refresh: %d %v", status, out)
	}
	access2, rt2 := out["access_token"].(string), out["refresh_token"].(string)
	for i := range 2 { // on both replicas
		if status, ok := tm.call(access2, "list_granted_resources"); status != http.StatusOK || !ok {
			t.Fatalf("call %d with the rotated access token: %d ok=%v", i, status, ok)
		}
	}
	// The old refresh token again: the family is revoked on every replica.
	status, out = tm.refresh(client, rt1)
	if status != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Fatalf("reusing a rotated refresh token: %d %v, want invalid_grant", status, out)
	}
	for i := range 2 {
		if status, out := tm.refresh(client, rt2); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
			t.Fatalf("refresh %d with the family's newest token after a reuse: %d %v", i, status, out)
		}
		if status, _ := tm.call(access2, "list_granted_resources"); status != http.StatusUnauthorized {
			t.Fatalf("call %d with the family's newest access token after a reuse: %d, want 401", i, status)
		}
	}
	var tokens, replicas = 0, map[int]bool{}
	for _, s := range tm.served() {
		if s.path == "/oauth/token" {
			tokens++
			replicas[s.replica] = true
		}
	}
	if tokens < 4 || len(replicas) != 2 {
		t.Fatalf("%d token requests on replicas %v; want both replicas to redeem and refresh", tokens, replicas)
	}
}

// One refresh token sent to both replicas at once: they take turns on the
// family, so exactly one rotates it and the other, finding it used,
// revokes the family, including what the first just issued.
func TestConcurrentRefreshOnTwoReplicasRotatesOnce(t *testing.T) {
	tm := newTeam(t, connect.ServerConfig{})
	b := tm.signedIn()
	for round := range 5 {
		client, _, rt := tm.login(b)
		var wg sync.WaitGroup
		var statuses [2]int
		var outs [2]map[string]any
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i], outs[i] = tm.refresh(client, rt)
			}()
		}
		wg.Wait()
		won := -1
		for i, s := range statuses {
			if s == http.StatusOK {
				if won >= 0 {
					t.Fatalf("round %d: both replicas rotated one refresh token", round)
				}
				won = i
			}
		}
		if won < 0 {
			t.Fatalf("round %d: neither replica rotated: %v %v", round, outs[0], outs[1])
		}
		if s, out := tm.refresh(client, outs[won]["refresh_token"].(string)); s != http.StatusBadRequest || out["error"] != "invalid_grant" {
			t.Fatalf("round %d: the winner's new refresh token outlived the reuse: %d %v", round, s, out)
		}
	}
}

// The rate limits count an address across replicas: three registrations
// a minute allowed, the fourth refused whichever replica it reaches.
func TestRateLimitIsSharedByReplicas(t *testing.T) {
	tm := newTeam(t, connect.ServerConfig{RegisterPerMinute: 3})
	for i := range 3 {
		if status, _ := tm.register("http://127.0.0.1:9/cb"); status != http.StatusCreated {
			t.Fatalf("registration %d: %d", i+1, status)
		}
	}
	for i := range 2 { // one on each replica
		if status, _ := tm.register("http://127.0.0.1:9/cb"); status != http.StatusTooManyRequests {
			t.Fatalf("registration %d past the shared limit: %d, want 429", i+4, status)
		}
	}
}

// The registration bound holds for registrations racing on two replicas.
func TestRegistrationBoundAcrossReplicas(t *testing.T) {
	tm := newTeam(t, connect.ServerConfig{MaxClients: 5, RegisterPerMinute: -1})
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if status, _ := tm.register("http://127.0.0.1:9/cb"); status == http.StatusCreated {
				mu.Lock()
				created++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if created != 5 {
		t.Fatalf("%d registrations stored, want exactly 5", created)
	}
}

func init() { http.DefaultClient.Timeout = 30 * time.Second }

// The Go SDK client through the balancer: its discovery, dynamic
// registration, PKCE and token exchange land on alternating replicas,
// and the session it opens calls a tool on both.
func TestGoSDKClientAcrossTwoReplicas(t *testing.T) {
	tm := newTeam(t, connect.ServerConfig{})
	b := tm.signedIn()
	fetch := func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		loc, err := b.Approve(args.URL, "", "")
		if err != nil {
			return nil, err
		}
		q := loc.Query()
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Claude Code (Go SDK test)", RedirectURIs: []string{"http://127.0.0.1:33418/callback"},
			GrantTypes: []string{"authorization_code", "refresh_token"}}},
		AuthorizationCodeFetcher: fetch,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg, 30*time.Second)
	defer cancel()
	cl := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-test", Version: "1"}, nil)
	s, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: tm.base + connect.ResourcePath, OAuthHandler: h, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connecting through the balancer: %v", err)
	}
	defer s.Close()
	for i := range 2 {
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "list_granted_resources", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("call %d: %v %+v", i, err, res)
		}
	}
	tm.redeemedElsewhere()
	mcpOn := map[int]bool{}
	for _, r := range tm.served() {
		if r.path == connect.ResourcePath {
			mcpOn[r.replica] = true
		}
	}
	if len(mcpOn) != 2 {
		t.Fatalf("MCP requests reached replicas %v, want both", mcpOn)
	}
	cs, err := tm.svcs[0].Connections(bg)
	if err != nil || len(cs) != 1 || cs[0].Status != connect.StatusConnected || cs[0].Workspace != "ws-acme" {
		t.Fatalf("connections as replica 0 reads them: %+v %v", cs, err)
	}
}
