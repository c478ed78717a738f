package connect

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/testkit/consentpage"
)

// env is a running endpoint over real loopback HTTP with a fake clock.
type env struct {
	t      *testing.T
	dbPath string
	db     *sql.DB
	svc    *Service
	srv    *Server
	notes  *fakeNotes
	clock  *fakeClock
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newEnv(t *testing.T) *env { t.Helper(); return newEnvWith(t, ServerConfig{}) }

func newEnvWith(t *testing.T, cfg ServerConfig) *env { t.Helper(); return newEnvOpts(t, cfg, nil) }

// newEnvOpts is newEnvWith with the Service's options changed by opt.
func newEnvOpts(t *testing.T, cfg ServerConfig, opt func(*Options)) *env {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "osfoundry.db")
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{t: t, dbPath: dbPath, db: db, notes: newFakeNotes(), clock: &fakeClock{t: time.Now()}}
	e.notes.put("note-a1", "ws-acme", "proj-a", "Q3 launch checklist")
	e.notes.put("note-b1", "ws-acme", "proj-b", "Budget")
	e.notes.put("note-x1", "ws-other", "proj-x", "Elsewhere")
	o := Options{Resources: e.notes, Now: e.clock.Now}
	if opt != nil {
		opt(&o)
	}
	e.svc, err = Open(context.Background(), db, o)
	if err != nil {
		t.Fatal(err)
	}
	e.srv, err = NewServer(e.svc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.srv.Close(context.Background()) })
	return e
}

// browser is the owner's browser: a cookie jar that never follows a
// redirect, so the test sees where the server sends it.
type browser struct {
	t      *testing.T
	e      *env
	c      *http.Client
	origin string // Origin header sent with the consent POST
}

func (e *env) browser(signedIn bool) *browser {
	jar, _ := cookiejar.New(nil)
	b := &browser{t: e.t, e: e, origin: e.srv.BaseURL(), c: &http.Client{Jar: jar, Timeout: 10 * time.Second, Transport: &fetchMetadata{sameSite: map[string]http.SameSite{}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	if signedIn {
		link, err := e.srv.SignInURL(context.Background(), OwnerID, 0)
		if err != nil {
			e.t.Fatal(err)
		}
		resp, err := b.c.Get(link)
		if err != nil {
			e.t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusSeeOther {
			e.t.Fatalf("sign-in: %s", resp.Status)
		}
	}
	return b
}

func (b *browser) get(u string) (int, string, http.Header) {
	resp, err := b.c.Get(u)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp.Header
}

// consentForm is what the consent page offered.
type consentForm = consentpage.Form

// openConsent GETs an authorization URL and parses the consent page.
func (b *browser) openConsent(authURL string) (*consentForm, error) {
	status, page, _ := b.get(authURL)
	if status != http.StatusOK {
		return nil, fmt.Errorf("authorize: status %d: %s", status, page)
	}
	return consentpage.Parse(page)
}

// submit POSTs the consent form and returns the status and Location.
func (b *browser) submit(f url.Values) (int, string, string) {
	req, _ := http.NewRequest(http.MethodPost, b.e.srv.BaseURL()+authorizePath, strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if b.origin != "" {
		req.Header.Set("Origin", b.origin)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(body)
}

// approve runs the whole consent for authURL choosing the connection
// labelled choice ("" = the first) and returns the redirect URL.
func (b *browser) approve(authURL, choice string) (*url.URL, error) {
	f, err := b.openConsent(authURL)
	if err != nil {
		return nil, err
	}
	conn := "new"
	if choice != "" {
		v, ok := f.Connections[choice]
		if !ok {
			return nil, fmt.Errorf("consent page has no connection option %q (has %v)", choice, f.Connections)
		}
		conn = v
	}
	status, loc, body := b.submit(url.Values{"request": {f.Request}, "csrf": {f.CSRF}, "workspace": {"ws-acme"},
		"connection": {conn}, "approve": {"yes"}, "action": {"connect"}})
	if status != http.StatusSeeOther {
		return nil, fmt.Errorf("consent POST: status %d: %s", status, body)
	}
	return url.Parse(loc)
}

// fetchMetadata sends what a browser sends: Sec-Fetch-Site "none" for a
// visit the person (or an assistant opening the browser) started, and
// "same-origin" for the consent form's POST, unless the test set one. On a
// request another site started (cross-site, same-site) it withholds the
// cookies a browser would by their SameSite (Strict: always; Lax: but on a
// GET navigation), which the Go cookie jar does not know.
type fetchMetadata struct {
	mu       sync.Mutex
	sameSite map[string]http.SameSite
}

func (f *fetchMetadata) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	site := r.Header.Get("Sec-Fetch-Site")
	if site == "" {
		site = "none"
		if r.Method == http.MethodPost {
			site = "same-origin"
		}
		r.Header.Set("Sec-Fetch-Site", site)
	}
	if site == "cross-site" || site == "same-site" {
		var keep []string
		f.mu.Lock()
		for _, c := range r.Cookies() {
			switch ss := f.sameSite[c.Name]; {
			case ss == http.SameSiteStrictMode, ss == http.SameSiteLaxMode && r.Method != http.MethodGet:
				continue
			}
			keep = append(keep, c.Name+"="+c.Value)
		}
		f.mu.Unlock()
		r.Header.Del("Cookie")
		if len(keep) > 0 {
			r.Header.Set("Cookie", strings.Join(keep, "; "))
		}
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		f.mu.Lock()
		for _, c := range resp.Cookies() {
			f.sameSite[c.Name] = c.SameSite
		}
		f.mu.Unlock()
	}
	return resp, err
}
