package teamtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/notes/pgnotes"
	"github.com/osfoundry/desktop/backend/pgdb"
)

// Team is a team server as an operator runs it: replicas on one database
// behind the TLS balancer, the provider people sign in with, and its
// first owner (alice) signed in and owning Workspace.
type Team struct {
	DB        string // the database's URL
	LB        *Balancer
	OP        *Provider
	Replicas  []*Replica
	Env       []string // a replica's environment: start more with Start(t, tm.Env)
	Owner     *Browser
	Workspace string
	pool      *pgxpool.Pool
}

// StartTeam starts n replicas on the database at db behind a balancer,
// and makes alice the first owner through the setup link a replica
// printed.
func StartTeam(t TB, db string, n int) *Team {
	t.Helper()
	tm := &Team{DB: db, LB: NewBalancer(t)}
	tm.OP = StartProvider(t, tm.LB.URL+"/auth/callback")
	tm.Env = append([]string{"OSF_DATABASE_URL=" + db, "OSF_PUBLIC_URL=" + tm.LB.URL, "OSF_LISTEN=127.0.0.1:0"}, tm.OP.Env()...)
	var addrs []string
	for range n {
		r := Start(t, tm.Env)
		tm.Replicas = append(tm.Replicas, r)
		addrs = append(addrs, r.Addr)
	}
	tm.LB.Start(t, addrs...)
	link := regexp.MustCompile(`https://\S+/auth/bootstrap\?token=\S+`).FindString(tm.Replicas[0].Stderr())
	if link == "" {
		t.Fatalf("the first replica printed no setup link:\n%s", tm.Replicas[0].Stderr())
	}
	tm.Owner = tm.LB.NewBrowser(tm.OP)
	page, err := tm.Owner.SignIn(link, "alice")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<code>([^<]+)</code>`).FindStringSubmatch(page.Body)
	if page.Code != http.StatusOK || m == nil {
		t.Fatalf("the setup link: %d at %s\n%s", page.Code, page.URL, page.Body)
	}
	tm.Workspace = m[1]
	tm.pool, err = pgdb.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tm.pool.Close)
	return tm
}

// NoteRef is a Note the harness made, with its text tab and version.
type NoteRef struct {
	ID, Tab string
	Version int64
}

// SeedNotes puts project (created when new) and n Notes in the owner's
// workspace, as a desktop's sync would; the server has no tool that
// creates a Note.
func (tm *Team) SeedNotes(t TB, project string, n int) []NoteRef {
	t.Helper()
	ctx := context.Background()
	db, err := pgnotes.Open(ctx, tm.pool)
	if err != nil {
		t.Fatal(err)
	}
	st := notes.OpenBackend(db, db, notes.Options{})
	tm.place(t, st, project)
	words := seedWords
	var out []NoteRef
	for i := range n {
		note, err := st.CreateNote(ctx, notes.NewNote{Workspace: tm.Workspace, Project: project,
			Title: fmt.Sprintf("Note %d: %s", i, words[i%len(words)]), Text: "# " + words[i%len(words)] + "\n\nThe " + words[i%len(words)] + " for Q3.\n"})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, NoteRef{ID: note.ID, Tab: note.Tabs[0].ID, Version: note.Version})
	}
	return out
}

var seedWords = []string{"launch checklist", "budget review", "roadmap", "hiring plan"}

// SeedKnowledge puts a knowledge base of n articles in project and
// returns its ID.
func (tm *Team) SeedKnowledge(t TB, project string, n int) string {
	t.Helper()
	ctx := context.Background()
	db, err := pgnotes.Open(ctx, tm.pool)
	if err != nil {
		t.Fatal(err)
	}
	st := notes.OpenBackend(db, db, notes.Options{})
	tm.place(t, st, project)
	kb, err := st.CreateKnowledgeBase(ctx, tm.Workspace, project, "", "Handbook")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		w := seedWords[i%len(seedWords)]
		if _, err := st.PutArticle(ctx, kb.ID, "", fmt.Sprintf("Article %d: %s", i, w),
			fmt.Sprintf("How we run the %s, part %d. Owners, dates and the checklist.", w, i)); err != nil {
			t.Fatal(err)
		}
	}
	return kb.ID
}

// place makes the owner's workspace and project in the notes store when new.
func (tm *Team) place(t TB, st *notes.Store, project string) {
	t.Helper()
	ctx := context.Background()
	if ws, _ := st.ListWorkspaces(ctx); !hasWorkspace(ws, tm.Workspace) {
		if _, err := st.CreateWorkspace(ctx, tm.Workspace, "Team"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.GetProject(ctx, project); err != nil {
		if _, err := st.CreateProject(ctx, tm.Workspace, project, project); err != nil {
			t.Fatal(err)
		}
	}
}

func hasWorkspace(ws []notes.Workspace, id string) bool {
	for _, w := range ws {
		if w.ID == id {
			return true
		}
	}
	return false
}

// Connect connects an assistant the way a remote host does (discovery,
// dynamic registration, PKCE, the owner's consent, token) through the
// balancer, adds its connection to projects, and returns the client with
// its access token. http is its HTTP client (nil: the balancer's).
func (tm *Team) Connect(t TB, name string, hc *http.Client, projects ...string) (*connecttest.Client, string) {
	t.Helper()
	if hc == nil {
		hc = tm.LB.Client
	}
	c := &connecttest.Client{HTTP: hc, Resource: tm.LB.URL + "/mcp", Name: name, Redirect: "http://127.0.0.1:1/cb",
		Browser: &connecttest.Browser{Base: tm.LB.URL, Client: tm.Owner.Once}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tok, _, err := c.Discover(ctx)
	if err != nil {
		t.Fatalf("connecting %s: %v", name, err)
	}
	if tok.AccessToken == "" {
		t.Fatalf("connecting %s: no access token (%s)", name, tok.Error)
	}
	if len(projects) > 0 {
		// The owner gives the new connection its projects on their page
		// (its JSON API): the newest of the connections they approved.
		var mine []struct {
			ID string `json:"id"`
		}
		if err := tm.Owner.API("GET", tm.LB.URL+"/api/connections", nil, &mine); err != nil || len(mine) == 0 {
			t.Fatalf("listing the owner's connections: %v", err)
		}
		for _, p := range projects {
			if err := tm.Owner.API("PUT", tm.LB.URL+"/api/connections/"+mine[0].ID+"/projects/"+url.PathEscape(p), nil, nil); err != nil {
				t.Fatalf("adding %s to %s: %v", p, name, err)
			}
		}
	}
	return c, tok.AccessToken
}

// Pool is a connection pool to the team's database, for checks.
func (tm *Team) Pool() *pgxpool.Pool { return tm.pool }

var requestField = regexp.MustCompile(`name="request" value="([^"]+)"`)

// ApproveDesktop is the person's browser when a desktop signs in: it
// opens the sign-in URL the app hands it, signs user in at the provider
// when b is not signed in yet, presses the confirmation page's button
// (decision "allow" or "deny"), and follows the redirect to the app's
// loopback listener. It is a teamclient.Options.Open.
func (tm *Team) ApproveDesktop(b *Browser, user, decision string) func(string) error {
	return func(u string) error {
		resp, err := b.Follow.Get(u)
		if err != nil {
			return err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(body)
		if resp.Request.URL.Query().Get("authRequestID") != "" { // the provider's login form
			p, err := b.SignIn(u, user)
			if err != nil {
				return err
			}
			page = p.Body
		}
		m := requestField.FindStringSubmatch(page)
		if !strings.Contains(page, "Sign in osFoundry desktop on ") || m == nil {
			return fmt.Errorf("no confirmation page:\n%s", page)
		}
		form := url.Values{"request": {m[1]}, "decision": {decision}}
		req, _ := http.NewRequest("POST", tm.LB.URL+"/auth/desktop/authorize", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", tm.LB.URL)
		resp, err = b.Follow.Do(req)
		if err != nil {
			return err
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Request.URL.Hostname() != "127.0.0.1" || resp.Request.URL.Path != "/callback" {
			return fmt.Errorf("the browser ended at %s, not the app's loopback address:\n%s", resp.Request.URL, body)
		}
		return nil
	}
}
