package teamclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(teamtest.Main(m)) }

var bg = context.Background()

// TestAgainstTheTeamServer runs the desktop's client against a real team
// server: the osfoundry binary, two replicas on a throw-away PostgreSQL
// behind haproxy with TLS, and the zitadel example OP as the company's
// provider, whose login form the person's browser fills in.
func TestAgainstTheTeamServer(t *testing.T) {
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	for _, c := range []struct {
		name string
		run  func(*testing.T, *teamtest.Team)
	}{
		{"join through the provider", testJoinThroughTheProvider},
		{"refresh rotates across replicas, reuse revokes", testRefreshRotatesAcrossReplicasAndReuseRevokes},
		{"sign out revokes", testSignOutRevokes},
		{"join refusals", testJoinRefusals},
		{"offline and expired", testStatusOfflineAndExpired},
		{"Secret Service", testSecretService},
		{"synced projects between two desktops", testSyncedProjects},
		{"a Local-only project is invisible to assistants on the server", testLocalOnlyInvisibleToAssistants},
		{"the team's text moves a synced Note's version forward", testSyncedVersionsMoveForward},
		{"a save the outbox has not seen yet is kept", testSaveNotSeenYetIsKept},
		{"move to Synced offline", testShareOffline},
		{"knowledge bases between two desktops", testKnowledgeSync},
		{"Records between two desktops", testRecordsSync},
		{"discussion between two desktops", testPostsSync},
		{"deletes between two desktops", testDeletesSync},
		{"Record fields between two desktops", testRecordFieldsSync},
		{"channels between two desktops", testChannelsSync},
		{"runs go to the desktop that allows them", testTeamRuns},
		{"runs go only where their project syncs", testRunsOnlyWhereSynced},
		{"shared sessions", testSharedSessions},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, tm) })
	}
}

// replicas counts which replica answered each request (haproxy names
// it), and sends the token requests to r1 and r2 in turn: round robin
// alone may give every refresh to the same replica, since each is
// followed by one /me.
type replicas struct {
	base   http.RoundTripper
	mu     sync.Mutex
	seen   map[string]map[string]int // path → replica → count
	tokens atomic.Int32
}

func (r *replicas) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/auth/desktop/token" {
		req = req.Clone(req.Context())
		req.Header.Set(teamtest.PinHeader, fmt.Sprintf("r%d", r.tokens.Add(1)%2+1))
	}
	resp, err := r.base.RoundTrip(req)
	if err == nil {
		r.mu.Lock()
		if r.seen == nil {
			r.seen = map[string]map[string]int{}
		}
		if r.seen[req.URL.Path] == nil {
			r.seen[req.URL.Path] = map[string]int{}
		}
		r.seen[req.URL.Path][resp.Header.Get("X-Balancer-Server")]++
		r.mu.Unlock()
	}
	return resp, err
}

// clock moves the desktop's time forward (its access token's expiry).
type clock struct{ off atomic.Int64 }

func (c *clock) Now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *clock) Advance(d time.Duration) { c.off.Add(int64(d)) }

// desktop is one app's client with its own data folder and token file.
type desktop struct {
	*Client
	dir    string
	rt     *replicas
	clock  *clock
	opened atomic.Int32
}

func newDesktop(t *testing.T, tm *teamtest.Team, browser func(string) error) *desktop {
	t.Helper()
	d := &desktop{dir: t.TempDir(), rt: &replicas{base: tm.LB.Client.Transport}, clock: &clock{}}
	d.Client = New(Options{Dir: d.dir, HTTP: &http.Client{Transport: d.rt, Timeout: 30 * time.Second},
		Open: func(u string) error { d.opened.Add(1); return browser(u) }, Device: "test-laptop",
		Secrets: TokenFile{Path: filepath.Join(d.dir, "team-token")}, Now: d.clock.Now, JoinTimeout: time.Minute})
	return d
}

// approveAs is the person's browser for a desktop's sign-in (teamtest.ApproveDesktop).
func approveAs(_ *testing.T, tm *teamtest.Team, b *teamtest.Browser, user, decision string) func(string) error {
	return tm.ApproveDesktop(b, user, decision)
}

func fileMode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// Joining through the real provider's pages: the app is connected as
// alice in her team; the refresh token sits in a 0600 file (no keychain
// here) and nowhere else on disk, and only as a hash on the server.
func testJoinThroughTheProvider(t *testing.T, tm *teamtest.Team) {
	d := newDesktop(t, tm, approveAs(t, tm, tm.Owner, "alice", "allow"))
	if st := d.Status(bg); st.State != SignedOut || st.Server != "" {
		t.Fatalf("before joining: %+v", st)
	}
	st, err := d.Join(bg, tm.LB.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if st.State != Connected || st.Person.Email != "alice@example.com" || st.Team != "Team" || st.Server != tm.LB.URL ||
		len(st.Workspaces) != 1 || st.Workspaces[0].Role != "owner" || !strings.HasPrefix(st.TokenStore, "a file only you can read") {
		t.Fatalf("after joining: %+v", st)
	}
	tokPath := filepath.Join(d.dir, "team-token")
	if m := fileMode(t, tokPath); m != 0o600 {
		t.Fatalf("token file mode %o, want 600", m)
	}
	tok, err := d.o.Secrets.Get(tm.LB.URL)
	if err != nil || !strings.HasPrefix(tok, "osfdr_") {
		t.Fatalf("stored token %q, %v", tok[:min(6, len(tok))], err)
	}
	cfg, _ := os.ReadFile(filepath.Join(d.dir, "team.json"))
	if strings.Contains(string(cfg), "osfdr_") || strings.Contains(string(cfg), "osfda_") || fileMode(t, filepath.Join(d.dir, "team.json")) != 0o600 {
		t.Fatalf("team.json holds a token or is readable by others:\n%s", cfg)
	}
	var clear int
	if err := tm.Pool().QueryRow(bg, `SELECT count(*) FROM teamauth_desktop_tokens WHERE hash = $1`, tok).Scan(&clear); err != nil || clear != 0 {
		t.Fatalf("the server keeps the token in clear: %d %v", clear, err)
	}
	// a second app, same person: joins without the provider's form
	if d.opened.Load() != 1 {
		t.Fatalf("the browser was opened %d times", d.opened.Load())
	}
}

// The access token expires every quarter hour: each refresh rotates the
// refresh token on whichever replica haproxy picks, and the app keeps
// only the newest. A copy of an older token (a thief's) presented later
// ends the sign-in for both.
func testRefreshRotatesAcrossReplicasAndReuseRevokes(t *testing.T, tm *teamtest.Team) {
	d := newDesktop(t, tm, approveAs(t, tm, tm.Owner, "alice", "allow"))
	if _, err := d.Join(bg, tm.LB.URL); err != nil {
		t.Fatal(err)
	}
	first, _ := d.o.Secrets.Get(tm.LB.URL)
	seenTokens := map[string]bool{first: true}
	for i := 0; i < 6; i++ {
		d.clock.Advance(16 * time.Minute)
		if st := d.Status(bg); st.State != Connected {
			t.Fatalf("refresh %d: %+v", i, st)
		}
		tok, _ := d.o.Secrets.Get(tm.LB.URL)
		if seenTokens[tok] {
			t.Fatalf("refresh %d kept an old refresh token", i)
		}
		seenTokens[tok] = true
	}
	d.rt.mu.Lock()
	byReplica := d.rt.seen["/auth/desktop/token"]
	d.rt.mu.Unlock()
	if byReplica["r1"] == 0 || byReplica["r2"] == 0 {
		t.Fatalf("token requests by replica: %v, want both", byReplica)
	}
	// a thief's copy of the first refresh token
	thief := newDesktop(t, tm, nil)
	cfg, _ := os.ReadFile(filepath.Join(d.dir, "team.json"))
	if err := os.WriteFile(filepath.Join(thief.dir, "team.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := thief.o.Secrets.Set(tm.LB.URL, first); err != nil {
		t.Fatal(err)
	}
	if st := thief.Status(bg); st.State != Expired || !strings.Contains(st.Message, "already used") {
		t.Fatalf("the thief's copy: %+v", st)
	}
	d.clock.Advance(16 * time.Minute)
	if st := d.Status(bg); st.State != Expired || !strings.Contains(st.Message, "sign in again") || st.Person.Email != "alice@example.com" {
		t.Fatalf("the app after the reuse: %+v", st)
	}
}

// Sign out tells the server (the token is refused from then on) and
// removes the token and the team settings; the app reads signed out.
func testSignOutRevokes(t *testing.T, tm *teamtest.Team) {
	bob := tm.LB.NewBrowser(tm.OP)
	d := newDesktop(t, tm, approveAs(t, tm, bob, "bob", "allow"))
	st, err := d.Join(bg, tm.LB.URL)
	if err != nil || st.State != Connected || st.Person.Email != "bob@example.com" || len(st.Workspaces) != 0 {
		t.Fatalf("bob joins: %+v %v", st, err)
	}
	tok, _ := d.o.Secrets.Get(tm.LB.URL)
	st, err = d.SignOut(bg)
	if err != nil || st.State != SignedOut || st.Server != "" {
		t.Fatalf("sign out: %+v %v", st, err)
	}
	for _, f := range []string{"team-token", "team.json"} {
		if _, err := os.Stat(filepath.Join(d.dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s left after sign out: %v", f, err)
		}
	}
	resp, err := tm.LB.Client.PostForm(tm.LB.URL+"/auth/desktop/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "signed out") {
		t.Fatalf("the signed-out token: %d %s", resp.StatusCode, body)
	}
}

// Addresses and answers that must not join, each with its message, and
// nothing saved.
func testJoinRefusals(t *testing.T, tm *teamtest.Team) {
	website := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><h1>Welcome to our website</h1>")
	}))
	defer website.Close()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := "http://" + closed.Addr().String()
	closed.Close()
	lb, _ := url.Parse(tm.LB.URL)
	newer := httptest.NewServer(&httputil.ReverseProxy{Transport: tm.LB.Client.Transport,
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(lb) },
		ModifyResponse: func(resp *http.Response) error {
			if resp.Request.URL.Path == discoveryPath {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				b = []byte(strings.Replace(string(b), `"min_desktop_api":1`, `"min_desktop_api":2`, 1))
				resp.Body = io.NopCloser(strings.NewReader(string(b)))
				resp.ContentLength = int64(len(b))
				resp.Header.Del("Content-Length")
			}
			return nil
		}})
	defer newer.Close()
	for _, c := range []struct {
		name, server string
		browser      func(string) error
		want         error
		says         string
	}{
		{"a plain website", website.URL, nil, ErrNotTeamServer, "is a web server, but not an osFoundry team server"},
		{"another server (the OIDC provider)", tm.OP.URL, nil, ErrNotTeamServer, "answered 404"},
		{"nothing listening", gone, nil, ErrUnreachable, "check the address and your network"},
		{"a server that needs a newer app", newer.URL, nil, ErrNeedsUpdate, "update osFoundry"},
		{"the person presses Cancel", tm.LB.URL, approveAs(t, tm, tm.Owner, "alice", "deny"), ErrDeclined, "press Sign in to try again"},
		{"not a web address", "ftp://team.example.com", nil, nil, "is not a web address"},
	} {
		t.Run(c.name, func(t *testing.T) {
			br := c.browser
			if br == nil {
				br = func(string) error { return errors.New("the browser should not open") }
			}
			d := newDesktop(t, tm, br)
			st, err := d.Join(bg, c.server)
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Join: %v, want %v saying %q", err, c.want, c.says)
			}
			if st.State != SignedOut {
				t.Fatalf("status after a refusal: %+v", st)
			}
			if entries, _ := os.ReadDir(d.dir); len(entries) != 0 {
				t.Fatalf("a refused join saved %v", entries)
			}
		})
	}
}

// A joined app whose server is out of reach reads offline with the team
// and person it last saw, and connected again once it is back; a wrong
// or expired token reads expired.
func testStatusOfflineAndExpired(t *testing.T, tm *teamtest.Team) {
	d := newDesktop(t, tm, approveAs(t, tm, tm.Owner, "alice", "allow"))
	if _, err := d.Join(bg, tm.LB.URL); err != nil {
		t.Fatal(err)
	}
	// the same data folder, with no network to the server
	down := New(Options{Dir: d.dir, Secrets: d.o.Secrets, HTTP: &http.Client{Transport: &http.Transport{
		DialContext: func(context.Context, string, string) (net.Conn, error) {
			return nil, errors.New("network is unreachable")
		}}}})
	var got []Status
	down.o.Emit = emitFunc(func(s Status) { got = append(got, s) })
	st := down.Status(bg)
	if st.State != Offline || st.Team != "Team" || st.Person.Email != "alice@example.com" || !strings.Contains(st.Message, "cannot be reached") {
		t.Fatalf("offline: %+v", st)
	}
	if len(got) != 1 || got[0].State != Offline {
		t.Fatalf("status events: %+v", got)
	}
	down.Status(bg)
	if len(got) != 1 {
		t.Fatalf("an unchanged status was sent again: %d events", len(got))
	}
	d.clock.Advance(16 * time.Minute)
	if st := d.Status(bg); st.State != Connected {
		t.Fatalf("back online: %+v", st)
	}

	// a wrong token
	good, _ := d.o.Secrets.Get(tm.LB.URL)
	_ = d.o.Secrets.Set(tm.LB.URL, "osfdr_not-a-token")
	d.clock.Advance(16 * time.Minute)
	if st := d.Status(bg); st.State != Expired || !strings.Contains(st.Message, "unknown refresh token") {
		t.Fatalf("wrong token: %+v", st)
	}
	// an expired one (its thirty days over, as the server's clock says)
	_ = d.o.Secrets.Set(tm.LB.URL, good)
	if _, err := tm.Pool().Exec(bg, `UPDATE teamauth_desktop_tokens SET expires_at = now() - interval '1 second'
		WHERE person_id = (SELECT id FROM teamauth_people WHERE email = 'alice@example.com')`); err != nil {
		t.Fatal(err)
	}
	d.clock.Advance(16 * time.Minute)
	if st := d.Status(bg); st.State != Expired || !strings.Contains(st.Message, "expired") {
		t.Fatalf("expired token: %+v", st)
	}
}

type emitFunc func(Status)

func (f emitFunc) Emit(event string, payload any) {
	if event == EventStatus {
		f(payload.(Status))
	}
}
