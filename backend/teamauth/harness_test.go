package teamauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"golang.org/x/text/language"

	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// The company's provider: zitadel/oidc's example OP, a real OpenID
// Provider (discovery, JWKS, signed ID tokens, PKCE), on a loopback port.
type provider struct {
	URL, clientID, secret string
}

// The provider's people. Erin's address is not verified by the provider.
var people = map[string]*storage.User{
	"alice": {ID: "sub-alice", Username: "alice", Password: "pw-alice", FirstName: "Alice", LastName: "A", Email: "alice@example.com", EmailVerified: true, PreferredLanguage: language.English},
	"bob":   {ID: "sub-bob", Username: "bob", Password: "pw-bob", FirstName: "Bob", LastName: "B", Email: "Bob@Example.com", EmailVerified: true, PreferredLanguage: language.English},
	"carol": {ID: "sub-carol", Username: "carol", Password: "pw-carol", FirstName: "Carol", LastName: "C", Email: "carol@example.com", EmailVerified: true, PreferredLanguage: language.English},
	"dave":  {ID: "sub-dave", Username: "dave", Password: "pw-dave", FirstName: "Dave", LastName: "D", Email: "dave@example.com", EmailVerified: true, PreferredLanguage: language.English},
	"erin":  {ID: "sub-erin", Username: "erin", Password: "pw-erin", FirstName: "Erin", LastName: "E", Email: "erin@example.com", EmailVerified: false, PreferredLanguage: language.English},
}

type userStore struct{}

func (userStore) GetUserByID(id string) *storage.User {
	for _, u := range people {
		if u.ID == id {
			return u
		}
	}
	return nil
}
func (userStore) GetUserByUsername(name string) *storage.User { return people[name] }
func (userStore) ExampleClientID() string                     { return "service" }

var (
	clientN   atomic.Int32
	opSetupMu sync.Mutex // the example registers clients in a package map
)

func startProvider(t *testing.T, redirectURI string) *provider {
	return startProviderAt(t, "", redirectURI)
}

// startProviderAt names the provider by host ("localhost": another site
// than the team server's 127.0.0.1, as for a browser); "" is its address.
func startProviderAt(t *testing.T, host, redirectURI string) *provider {
	t.Helper()
	opSetupMu.Lock()
	defer opSetupMu.Unlock()
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	if host != "" {
		issuer = "http://" + host + ":" + strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	}
	p := &provider{URL: issuer, clientID: fmt.Sprintf("osfoundry-team-%d", clientN.Add(1)), secret: "client-secret"}
	// a second client of the same provider, with the same redirect URI
	storage.RegisterClients(storage.WebClient(p.clientID, p.secret, redirectURI), storage.WebClient(p.clientID+"-other", p.secret, redirectURI))
	srv.Config.Handler = exampleop.SetupServer(issuer, storage.NewStorage(userStore{}), slog.New(slog.DiscardHandler), false)
	srv.Start()
	t.Cleanup(srv.Close)
	return p
}

// clock is the replicas' shared clock, moved forward by tests.
type clock struct{ off atomic.Int64 }

func (c *clock) Now() time.Time            { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *clock) Advance(d time.Duration)   { c.off.Add(int64(d)) }
func (c *clock) Reset()                    { c.off.Store(0) }
func (c *clock) NowFunc() func() time.Time { return c.Now }

// team is two replicas over one database behind one public address. The
// front sends each request to the replica route picks (default: taking
// turns), the way a load balancer may.
type team struct {
	t        *testing.T
	URL      string
	op       *provider
	replicas [2]*Service
	pool     *pgxpool.Pool
	clock    *clock
	route    atomic.Value // func(*http.Request) int
	served   [2]atomic.Int32
	pages    atomic.Value // http.Handler of a test's own pages under /test/
	turn     atomic.Int32
}

func newTeam(t *testing.T, opts ...func(*Config)) *team {
	t.Helper()
	return newTeamWith(t, "", opts...)
}

// newTeamWith is newTeam with the provider named by opHost (see
// startProviderAt).
func newTeamWith(t *testing.T, opHost string, opts ...func(*Config)) *team {
	t.Helper()
	ctx := context.Background()
	dsn := pgtest.Database(t)
	tm := &team{t: t, clock: &clock{}}
	front := httptest.NewServer(http.HandlerFunc(tm.serve))
	t.Cleanup(front.Close)
	tm.URL = front.URL
	tm.op = startProviderAt(t, opHost, front.URL+callbackPath)
	for i := range tm.replicas {
		pool, err := pgdb.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		cfg := Config{Pool: pool, PublicURL: front.URL, Issuer: tm.op.URL, ClientID: tm.op.clientID,
			ClientSecret: tm.op.secret, SessionTTL: 12 * time.Hour, BootstrapTTL: time.Hour, Now: tm.clock.NowFunc()}
		for _, o := range opts {
			o(&cfg)
		}
		svc, err := New(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		tm.replicas[i] = svc
		tm.pool = pool
	}
	tm.route.Store(func(*http.Request) int { return int(tm.turn.Add(1)) % 2 })
	return tm
}

func (tm *team) serve(w http.ResponseWriter, r *http.Request) {
	if h, ok := tm.pages.Load().(http.Handler); ok && strings.HasPrefix(r.URL.Path, "/test/") {
		h.ServeHTTP(w, r)
		return
	}
	i := tm.route.Load().(func(*http.Request) int)(r)
	tm.served[i].Add(1)
	tm.replicas[i].Handler().ServeHTTP(w, r)
}

func (tm *team) routeBy(f func(*http.Request) int) { tm.route.Store(f) }

// browser is a person's browser: a cookie jar, following redirects
// (get, post) or stopping at the first (step).
type browser struct {
	t      *testing.T
	tm     *team
	follow *http.Client
	once   *http.Client
}

func (tm *team) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: tm.t, tm: tm, follow: &http.Client{Jar: jar, Timeout: 30 * time.Second},
		once: &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
}

type page struct {
	Code int
	URL  *url.URL
	Body string
	Hdr  http.Header
}

func (b *browser) do(c *http.Client, method, u string, body io.Reader, hdr ...string) page {
	b.t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		b.t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return page{Code: resp.StatusCode, URL: resp.Request.URL, Body: string(data), Hdr: resp.Header}
}

// get follows redirects and, as a browser does, the landing page's
// refresh (the sign-in's last step; see landing.go).
func (b *browser) get(u string) page {
	b.t.Helper()
	p := b.do(b.follow, "GET", u, nil)
	for i := 0; i < 3 && p.Code == http.StatusOK; i++ {
		m := refreshRe.FindStringSubmatch(p.Body)
		if m == nil {
			break
		}
		next, err := p.URL.Parse(html.UnescapeString(m[1]))
		if err != nil {
			b.t.Fatal(err)
		}
		p = b.do(b.follow, "GET", next.String(), nil)
	}
	return p
}

var refreshRe = regexp.MustCompile(`<meta http-equiv="refresh" content="0;url=([^"]+)">`)

// step makes one request without following its redirect; the answer's
// Location (or the landing page's refresh) is returned.
func (b *browser) step(method, u string, body io.Reader, hdr ...string) (page, string) {
	b.t.Helper()
	p := b.do(b.once, method, u, body, hdr...)
	loc := p.Hdr.Get("Location")
	if m := refreshRe.FindStringSubmatch(p.Body); loc == "" && m != nil && p.Code == http.StatusOK {
		loc = html.UnescapeString(m[1]) // the landing page's next step
	}
	if loc != "" {
		l, err := p.URL.Parse(loc)
		if err != nil {
			b.t.Fatal(err)
		}
		loc = l.String()
	}
	return p, loc
}

// startLogin asks the server for a sign-in and returns the provider's
// authorization URL it redirects to.
func (b *browser) startLogin(returnTo string) string {
	b.t.Helper()
	p, loc := b.step("GET", b.tm.URL+loginPath+"?return_to="+url.QueryEscape(returnTo), nil)
	if p.Code != http.StatusFound || !strings.HasPrefix(loc, b.tm.op.URL) {
		b.t.Fatalf("login: %d to %q, want a redirect to the provider; %s", p.Code, loc, p.Body)
	}
	return loc
}

// atProvider signs user in at the provider's own login page, starting at
// its authorization URL, and returns the callback URL the provider sends
// the browser to (not yet visited).
func (b *browser) atProvider(authURL, user string) string {
	b.t.Helper()
	form := b.get(authURL)
	id := form.URL.Query().Get("authRequestID")
	if form.Code != http.StatusOK || id == "" || !strings.Contains(form.Body, `name="password"`) {
		b.t.Fatalf("the provider's login page: %d at %s\n%s", form.Code, form.URL, form.Body)
	}
	u := people[user]
	vals := url.Values{"username": {u.Username}, "password": {u.Password}, "id": {id}}
	p, loc := b.step("POST", b.tm.op.URL+"/login/username", strings.NewReader(vals.Encode()), "Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i < 5 && strings.HasPrefix(loc, b.tm.op.URL); i++ {
		p, loc = b.step("GET", loc, nil)
	}
	if !strings.HasPrefix(loc, b.tm.URL+callbackPath) {
		b.t.Fatalf("the provider did not send the browser back: %d to %q\n%s", p.Code, loc, p.Body)
	}
	return loc
}

// signIn runs the whole sign-in and checks the browser lands signed in.
func (b *browser) signIn(user string) Person {
	b.t.Helper()
	cb := b.atProvider(b.startLogin("/auth/me"), user)
	p := b.get(cb)
	if p.Code != http.StatusOK || p.URL.Path != mePath {
		b.t.Fatalf("sign-in of %s: %d at %s\n%s", user, p.Code, p.URL, p.Body)
	}
	return b.me()
}

// me is who the server says is signed in (zero Person when nobody).
func (b *browser) me() Person {
	b.t.Helper()
	var out struct{ Person Person }
	if code := b.api("GET", mePath, nil, &out); code != http.StatusOK && code != http.StatusUnauthorized {
		b.t.Fatalf("%s: %d", mePath, code)
	}
	return out.Person
}

// api calls the JSON API as a page of the server would (same Origin).
func (b *browser) api(method, path string, in, out any) int {
	b.t.Helper()
	var body io.Reader
	hdr := []string{"Origin", b.tm.URL, "Accept", "application/json"}
	if in != nil {
		data, _ := json.Marshal(in)
		body = bytes.NewReader(data)
		hdr = append(hdr, "Content-Type", "application/json")
	}
	p := b.do(b.once, method, b.tm.URL+path, body, hdr...)
	if out != nil && p.Code < 300 {
		if err := json.Unmarshal([]byte(p.Body), out); err != nil {
			b.t.Fatalf("%s %s: %v in %s", method, path, err, p.Body)
		}
	}
	if e, ok := out.(*apiError); ok && p.Code >= 300 {
		_ = json.Unmarshal([]byte(p.Body), e)
	}
	return p.Code
}

func (b *browser) cookie(name string) *http.Cookie {
	u, _ := url.Parse(b.tm.URL)
	for _, c := range b.follow.Jar.Cookies(u) {
		if c.Name == name {
			return c
		}
	}
	return nil
}
