package teamtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"golang.org/x/text/language"

	"github.com/osfoundry/desktop/backend/teamserver/teamconfig"
)

// Provider is the team's OpenID Connect provider: zitadel/oidc's example
// OP (discovery, JWKS, signed ID tokens, its own login form) on a
// loopback port, knowing the people of People.
type Provider struct {
	URL, ClientID, Secret string
}

// People are the provider's accounts; the password of each is "pw-" and
// the name.
var People = map[string]*storage.User{
	"alice": {ID: "sub-alice", Username: "alice", Password: "pw-alice", FirstName: "Alice", LastName: "A", Email: "alice@example.com", EmailVerified: true, PreferredLanguage: language.English},
	"bob":   {ID: "sub-bob", Username: "bob", Password: "pw-bob", FirstName: "Bob", LastName: "B", Email: "bob@example.com", EmailVerified: true, PreferredLanguage: language.English},
	"carol": {ID: "sub-carol", Username: "carol", Password: "pw-carol", FirstName: "Carol", LastName: "C", Email: "carol@example.com", EmailVerified: true, PreferredLanguage: language.English},
}

type userStore struct{}

func (userStore) GetUserByID(id string) *storage.User {
	for _, u := range People {
		if u.ID == id {
			return u
		}
	}
	return nil
}
func (userStore) GetUserByUsername(name string) *storage.User { return People[name] }
func (userStore) ExampleClientID() string                     { return "service" }

var (
	clientN    atomic.Int32
	providerMu sync.Mutex // the example keeps its clients in a package map
)

// StartProvider starts a provider whose client (the team server) comes
// back to redirectURI.
func StartProvider(t TB, redirectURI string) *Provider {
	t.Helper()
	providerMu.Lock()
	defer providerMu.Unlock()
	srv := httptest.NewUnstartedServer(nil)
	p := &Provider{URL: "http://" + srv.Listener.Addr().String(), ClientID: fmt.Sprintf("osfoundry-team-%d", clientN.Add(1)), Secret: "client-secret"}
	storage.RegisterClients(storage.WebClient(p.ClientID, p.Secret, redirectURI))
	srv.Config.Handler = exampleop.SetupServer(p.URL, storage.NewStorage(userStore{}), slog.New(slog.DiscardHandler), false)
	srv.Start()
	t.Cleanup(srv.Close)
	return p
}

// Env is the environment that points a replica at the provider.
func (p *Provider) Env() []string {
	return []string{teamconfig.EnvOIDCIssuer + "=" + p.URL, teamconfig.EnvOIDCClientID + "=" + p.ClientID,
		teamconfig.EnvOIDCClientSecret + "=" + p.Secret}
}

// Browser is a person's browser on the team server: one cookie jar, a
// client that follows redirects and one that stops at the first.
type Browser struct {
	Follow, Once *http.Client
	op           *Provider
}

// NewBrowser returns a browser trusting the balancer's CA.
func (b *Balancer) NewBrowser(op *Provider) *Browser {
	jar, _ := cookiejar.New(nil)
	tr := b.Client.Transport
	return &Browser{op: op,
		Follow: &http.Client{Jar: jar, Transport: tr, Timeout: b.Client.Timeout},
		Once: &http.Client{Jar: jar, Transport: tr, Timeout: b.Client.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Page is where a browser ended.
type Page struct {
	Code int
	URL  *url.URL
	Body string
}

// SignIn opens start (a page of the server that needs a signed-in
// person, such as the one-time setup link), signs user in at the
// provider's login form, and returns the page the server finally shows.
func (b *Browser) SignIn(start, user string) (Page, error) {
	form, err := b.get(b.Follow, start)
	if err != nil {
		return form, err
	}
	id := form.URL.Query().Get("authRequestID")
	if form.Code != http.StatusOK || id == "" {
		return form, fmt.Errorf("the provider's login form: %d at %s", form.Code, form.URL)
	}
	u := People[user]
	if u == nil {
		return form, fmt.Errorf("the provider knows no %q", user)
	}
	vals := url.Values{"username": {u.Username}, "password": {u.Password}, "id": {id}}
	resp, err := b.Once.PostForm(b.op.URL+"/login/username", vals)
	if err != nil {
		return form, fmt.Errorf("signing in at the provider: %w", err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	for i := 0; i < 5 && (strings.HasPrefix(loc, b.op.URL) || strings.HasPrefix(loc, "/")); i++ {
		next, err := resp.Request.URL.Parse(loc)
		if err != nil {
			return form, err
		}
		if resp, err = b.Once.Get(next.String()); err != nil {
			return form, fmt.Errorf("at the provider: %w", err)
		}
		resp.Body.Close()
		loc = resp.Header.Get("Location")
	}
	if loc == "" {
		return form, fmt.Errorf("the provider did not send the browser back (%s)", resp.Status)
	}
	return b.get(b.Follow, loc)
}

// API calls a JSON route of the server at u as its own pages do (the
// same Origin) with in as its JSON body (nil: none), and decodes a 2xx
// answer into out (nil: none).
func (b *Browser) API(method, u string, in, out any) error {
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Origin", req.URL.Scheme+"://"+req.URL.Host)
	req.Header.Set("Accept", "application/json")
	resp, err := b.Once.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, u, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s %s", method, u, resp.Status, answer)
	}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	return json.Unmarshal(answer, out)
}

// get fetches u and, as a browser does, follows the sign-in's landing
// page (a meta refresh) to the page it goes on to.
func (b *Browser) get(c *http.Client, u string) (Page, error) {
	for i := 0; ; i++ {
		resp, err := c.Get(u)
		if err != nil {
			return Page{}, fmt.Errorf("GET %s: %w", u, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		p := Page{Code: resp.StatusCode, URL: resp.Request.URL, Body: string(body)}
		m := refreshRe.FindStringSubmatch(p.Body)
		if m == nil || p.Code != http.StatusOK || i == 3 {
			return p, nil
		}
		next, err := p.URL.Parse(html.UnescapeString(m[1]))
		if err != nil {
			return p, err
		}
		u = next.String()
	}
}

var refreshRe = regexp.MustCompile(`<meta http-equiv="refresh" content="0;url=([^"]+)">`)
