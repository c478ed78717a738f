package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/connect/msgres"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/connect/pgconnect"
	"github.com/osfoundry/desktop/backend/connect/pgproposals"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/messages/pgmessages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/notes/pgnotes"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/teamconnect"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(teamtest.Main(m)) }

var bg = context.Background()

// cluster is the whole team server as an operator runs it, plus the
// owner's side of the Connected agents panel over the same database (the
// team server has no panel of its own yet; its state is all in PostgreSQL,
// so a Service over the same tables is what any panel would call).
type cluster struct {
	t         *testing.T
	lb        *teamtest.Balancer
	replicas  map[string]*teamtest.Replica // r1, r2 as haproxy names them
	op        string                       // the provider's issuer
	pool      *pgxpool.Pool
	notes     *notes.Store
	panel     *connect.Service
	ws        string // the team's workspace (teamauth's id, also the notes workspace)
	other     string // a workspace only alice belongs to
	alice     *browser
	bob       *browser // an editor of the team's workspace, signed in
	bobMember string   // his member id there
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	dsn := pgtest.Database(t)
	c := &cluster{t: t, lb: teamtest.NewBalancer(t)}

	op := teamtest.StartProvider(t, c.lb.URL+"/auth/callback")
	c.op = op.URL
	env := append([]string{"OSF_DATABASE_URL=" + dsn, "OSF_PUBLIC_URL=" + c.lb.URL, "OSF_LISTEN=127.0.0.1:0"}, op.Env()...)
	a := teamtest.Start(t, env)
	b := teamtest.Start(t, env)
	c.replicas = map[string]*teamtest.Replica{"r1": a, "r2": b}
	c.lb.Start(t, a.Addr, b.Addr)

	link := regexp.MustCompile(`https://\S+/auth/bootstrap\?token=\S+`).FindString(a.Stderr())
	if link == "" {
		t.Fatalf("the first replica printed no setup link:\n%s", a.Stderr())
	}
	c.alice = c.browser()
	c.alice.signIn("alice", link)
	var ws []teamauth.Workspace
	if code := c.alice.api("GET", "/api/workspaces", nil, &ws); code != http.StatusOK || len(ws) != 1 || ws[0].Role != teamauth.Owner {
		t.Fatalf("alice's workspaces after the setup link: %d %+v", code, ws)
	}
	c.ws = ws[0].ID
	var other teamauth.Workspace
	if code := c.alice.api("POST", "/api/workspaces", map[string]string{"name": "Other"}, &other); code != http.StatusOK {
		t.Fatalf("creating a second workspace: %d", code)
	}
	c.other = other.ID

	pool, err := pgdb.Open(bg, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	c.pool = pool
	db, err := pgnotes.Open(bg, pool)
	if err != nil {
		t.Fatal(err)
	}
	c.notes = notes.OpenBackend(db, db, notes.Options{})
	for _, f := range []func() error{
		func() error { _, err := c.notes.CreateWorkspace(bg, c.ws, "Team"); return err },
		func() error { _, err := c.notes.CreateProject(bg, c.ws, "proj-a", "Launch"); return err },
		func() error { _, err := c.notes.CreateProject(bg, c.ws, "proj-b", "Finance"); return err },
		func() error { _, err := c.notes.CreateWorkspace(bg, c.other, "Other"); return err },
		func() error { _, err := c.notes.CreateProject(bg, c.other, "proj-x", "Secret"); return err },
		func() error {
			_, err := c.notes.CreateNote(bg, notes.NewNote{ID: "note-a1", Workspace: c.ws, Project: "proj-a", Title: "Q3 launch checklist", Text: "- ship"})
			return err
		},
		func() error {
			_, err := c.notes.CreateNote(bg, notes.NewNote{ID: "note-b1", Workspace: c.ws, Project: "proj-b", Title: "Budget", Text: "42"})
			return err
		},
		func() error {
			_, err := c.notes.CreateNote(bg, notes.NewNote{ID: "note-x1", Workspace: c.other, Project: "proj-x", Title: "Salaries", Text: "secret"})
			return err
		},
	} {
		if err := f(); err != nil {
			t.Fatalf("seeding the workspaces: %v", err)
		}
	}
	msgs, _, err := pgmessages.OpenStore(bg, pool, messages.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := pgconnect.Open(bg, pool)
	if err != nil {
		t.Fatal(err)
	}
	props, err := pgproposals.Open(bg, pool)
	if err != nil {
		t.Fatal(err)
	}
	c.panel, err = connect.New(bg, teamconnect.NewStore(st, pool), connect.Options{
		Resources: msgres.Resources{Resources: notesres.New(c.notes), S: msgs},
		Extra:     []connect.ToolSource{msgres.Source{S: msgs}}, Proposals: props})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// member invites email to the team's workspace with role and signs the
// person in on a browser of their own, which claims the invitation.
func (c *cluster) member(user string, role teamauth.Role) (*browser, string) {
	c.t.Helper()
	var m teamauth.Member
	if code := c.alice.api("POST", "/api/workspaces/"+c.ws+"/members", map[string]any{"email": teamtest.People[user].Email, "role": role}, &m); code != http.StatusOK {
		c.t.Fatalf("inviting %s: %d", user, code)
	}
	b := c.browser()
	b.signIn(user, c.lb.URL+"/auth/login?return_to=%2Fauth%2Fme")
	var ws []teamauth.Workspace
	if code := b.api("GET", "/api/workspaces", nil, &ws); code != http.StatusOK || len(ws) != 1 || ws[0].ID != c.ws {
		c.t.Fatalf("%s's workspaces: %d %+v", user, code, ws)
	}
	return b, m.ID
}

// pinned is a transport that sends each request to the replica pin names
// for its path ("" lets the balancer take turns), through the balancer.
type pinned struct {
	base http.RoundTripper
	pin  func(path string) string
}

func (p pinned) RoundTrip(r *http.Request) (*http.Response, error) {
	if to := p.pin(r.URL.Path); to != "" {
		r = r.Clone(r.Context())
		r.Header.Set(teamtest.PinHeader, to)
	}
	return p.base.RoundTrip(r)
}

// client is an HTTP client of the balancer, pinned by pin (nil: taking turns).
func (c *cluster) client(pin func(string) string, jar http.CookieJar) *http.Client {
	if pin == nil {
		pin = func(string) string { return "" }
	}
	return &http.Client{Timeout: time.Minute, Jar: jar, Transport: pinned{base: c.lb.Client.Transport, pin: pin},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// browser is a person's browser: cookies, following nothing by itself.
// Its consent pages open on r1; the assistant's token requests go to r2.
type browser struct {
	c  *cluster
	cl *http.Client
	cb *connecttest.Browser
}

func (c *cluster) browser() *browser {
	jar, _ := cookiejar.New(nil)
	cl := c.client(func(p string) string {
		if p == "/oauth/authorize" {
			return "r1"
		}
		return ""
	}, jar)
	return &browser{c: c, cl: cl, cb: &connecttest.Browser{Base: c.lb.URL, Client: cl}}
}

// walk follows redirects from u, signing in as user at the provider's
// login page when the browser gets there, until a page answers 200 on
// this server; it returns that page's URL and body.
func (b *browser) walk(u, user string) (string, string) {
	t := b.c.t
	t.Helper()
	for range 12 {
		resp, err := b.cl.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode >= 300 && resp.StatusCode < 400:
			next, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
			if err != nil {
				t.Fatal(err)
			}
			u = next.String()
		case resp.StatusCode == http.StatusOK && strings.HasPrefix(u, b.c.op) && strings.Contains(string(body), `name="password"`):
			if user == "" {
				t.Fatalf("the browser was sent to sign in at %s", u)
			}
			id := resp.Request.URL.Query().Get("authRequestID")
			form := url.Values{"username": {teamtest.People[user].Username}, "password": {teamtest.People[user].Password}, "id": {id}}
			resp, err := b.cl.PostForm(b.c.op+"/login/username", form)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			next, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
			if err != nil || resp.StatusCode/100 != 3 {
				t.Fatalf("signing %s in at the provider: %d %v", user, resp.StatusCode, err)
			}
			u = next.String()
		case resp.StatusCode == http.StatusOK && strings.HasPrefix(u, b.c.lb.URL) && landing.Match(body):
			// the sign-in's landing page goes on from this site (a meta refresh)
			next, err := resp.Request.URL.Parse(html.UnescapeString(string(landing.FindSubmatch(body)[1])))
			if err != nil {
				t.Fatal(err)
			}
			u = next.String()
		case resp.StatusCode == http.StatusOK && strings.HasPrefix(u, b.c.lb.URL):
			return u, string(body)
		default:
			t.Fatalf("GET %s: %d\n%s", u, resp.StatusCode, body)
		}
	}
	t.Fatalf("too many redirects from %s", u)
	return "", ""
}

var landing = regexp.MustCompile(`<meta http-equiv="refresh" content="0;url=([^"]+)">`)

// signIn opens u signed out: the server sends the browser to the provider
// and back.
func (b *browser) signIn(user, u string) string {
	b.c.t.Helper()
	_, body := b.walk(u, user)
	return body
}

// approve is the person's half of an authorization: open the consent page
// the assistant sent them to (signing in at the provider first when this
// browser is signed out), pick the workspace and connection, Connect.
func (b *browser) approve(authURL, user, choice string) (*url.URL, error) {
	page, _ := b.walk(authURL, user)
	return b.cb.Approve(page, b.c.ws, choice)
}

// api calls the members API as a page of the server does.
func (b *browser) api(method, path string, in, out any) int {
	t := b.c.t
	t.Helper()
	var body io.Reader
	if in != nil {
		data, _ := json.Marshal(in)
		body = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, b.c.lb.URL+path, body)
	req.Header.Set("Origin", b.c.lb.URL)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.cl.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return resp.StatusCode
}

// servedBy lists the replicas whose log holds a request on route (the
// pattern that answered it, e.g. "GET /oauth/authorize").
func (c *cluster) servedBy(route string) []string {
	var out []string
	for _, name := range []string{"r1", "r2"} {
		logs, err := c.replicas[name].Logs()
		if err != nil {
			c.t.Logf("%s's log: %v", name, err)
		}
		for _, l := range logs {
			if l["msg"] == "request" && l["route"] == route {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// personID is teamauth's id of a person who signed in.
func (c *cluster) personID(user string) string {
	c.t.Helper()
	var id string
	if err := c.pool.QueryRow(bg, `SELECT id FROM teamauth_people WHERE email = $1`, teamtest.People[user].Email).Scan(&id); err != nil {
		c.t.Fatalf("%s has not signed in: %v", user, err)
	}
	return id
}
