package notesres_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

var bg = context.Background()

// world is the real notes store behind a running endpoint.
type world struct {
	notes *notes.Store
	svc   *connect.Service
	srv   *connect.Server
}

func newWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	must(t, err2(st.CreateWorkspace(bg, "ws-acme", "Acme")))
	must(t, err2(st.CreateProject(bg, "ws-acme", "proj-a", "Launch")))
	must(t, err2(st.CreateProject(bg, "ws-acme", "proj-b", "Finance")))
	must(t, err2(st.CreateNote(bg, notes.NewNote{ID: "note-a1", Workspace: "ws-acme", Project: "proj-a", Title: "Q3 launch checklist", Text: "- ship"})))
	must(t, err2(st.CreateNote(bg, notes.NewNote{ID: "note-b1", Workspace: "ws-acme", Project: "proj-b", Title: "Budget", Text: "42"})))
	svc, err := connect.Open(bg, db, connect.Options{Resources: notesres.New(st)})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := connect.NewServer(svc, connect.ServerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	must(t, srv.Start("127.0.0.1:0"))
	t.Cleanup(func() { srv.Close(bg) })
	return &world{notes: st, svc: svc, srv: srv}
}

func err2[T any](_ T, err error) error { return err }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestScenarioRealNotes is docs/reference.md §6's 9-step scenario against the real
// notes store, with the Go SDK client doing discovery, DCR, PKCE and
// token exchange, and step-up authorization at step 6.
func TestScenarioRealNotes(t *testing.T) {
	w := newWorld(t)
	pending, err := w.svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	b := connecttest.NewBrowser(w.srv.BaseURL())
	link, _ := w.srv.SignInURL(bg, connect.OwnerID, 0)
	must(t, b.SignIn(link))

	var mu sync.Mutex
	decline, choice, scopes := false, "Use pending: Claude chat", []string{"osfoundry:read"}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Claude (Go SDK)", RedirectURIs: []string{"http://127.0.0.1:33419/callback"}}},
		AuthorizationCodeFetcher: func(ctx context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			mu.Lock()
			d, c := decline, choice
			mu.Unlock()
			if d {
				return nil, errors.New("owner declined")
			}
			loc, err := b.Approve(a.URL, "ws-acme", c)
			if err != nil {
				return nil, err
			}
			q := loc.Query()
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		},
		ScopeFilter: func(d []string) []string {
			mu.Lock()
			defer mu.Unlock()
			if scopes != nil {
				s := scopes
				scopes = nil
				return s
			}
			return d
		},
	})
	must(t, err)
	ctx, cancel := context.WithTimeout(bg, time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: w.srv.ResourceURL(), OAuthHandler: h, DisableStandaloneSSE: true}, nil)
	must(t, err)
	defer cs.Close()

	var tabID string
	var version float64
	call := func(tool string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return "ERR " + err.Error()
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			code, _, _ := strings.Cut(text, ":")
			return "DENY " + code
		}
		var v struct {
			Resources *[]connect.Resource `json:"resources"`
			Title     string              `json:"title"`
			Version   float64             `json:"version"`
			Tabs      []struct {
				ID string `json:"tab_id"`
			} `json:"tabs"`
		}
		json.Unmarshal([]byte(text), &v)
		switch {
		case v.Resources != nil:
			ids := []string{}
			for _, r := range *v.Resources {
				ids = append(ids, r.ID)
			}
			out, _ := json.Marshal(ids)
			return "OK " + string(out)
		case tool == "list_note_tabs":
			if len(v.Tabs) > 0 {
				tabID, version = v.Tabs[0].ID, v.Version
			}
			return "OK " + v.Title
		}
		return "OK saved"
	}
	read := map[string]any{"note_id": "note-a1"}
	edit := func() map[string]any {
		return map[string]any{"note_id": "note-a1", "tab_id": tabID, "expected_version": version,
			"idempotency_key": "k-" + time.Now().Format("150405.000000000"), "operation": "replace_text", "text": "- ship\n- v2"}
	}
	set := func(d bool, c string) func() {
		return func() { mu.Lock(); decline, choice = d, c; mu.Unlock() }
	}
	steps := []struct {
		name  string
		owner func()
		tool  string
		args  func() map[string]any
		want  string
	}{
		{"1 fresh connection, no project yet", nil, "list_project_resources", func() map[string]any { return map[string]any{} }, `OK []`},
		{"2 after owner adds project A", func() { must(t, w.svc.AddProject(bg, pending.ID, "proj-a")) }, "list_project_resources", func() map[string]any { return map[string]any{} }, `OK ["note-a1"]`},
		{"3 read note in A", nil, "list_note_tabs", func() map[string]any { return read }, "OK Q3 launch checklist"},
		{"4 read note in B (never added)", nil, "list_note_tabs", func() map[string]any { return map[string]any{"note_id": "note-b1"} }, "DENY not_in_project"},
		{"5 write with a read-only token", set(true, ""), "edit_note_tab", edit, "ERR"},
		{"6 write with read+write token", set(false, "Keep using: Claude chat"), "edit_note_tab", edit, "OK saved"},
		{"7 same read after note moved to B", func() { must(t, w.notes.MoveNote(bg, "note-a1", "proj-b")) }, "list_note_tabs", func() map[string]any { return read }, "DENY not_in_project"},
		{"7b note back in A", func() { must(t, w.notes.MoveNote(bg, "note-a1", "proj-a")) }, "list_note_tabs", func() map[string]any { return read }, "OK Q3 launch checklist"},
		{"8 same read after owner removes project A", func() { must(t, w.svc.RemoveProject(bg, pending.ID, "proj-a")) }, "list_note_tabs", func() map[string]any { return read }, "DENY not_in_project"},
		{"9 same read after revoke", func() {
			must(t, w.svc.AddProject(bg, pending.ID, "proj-a"))
			must(t, w.svc.Revoke(bg, pending.ID))
		}, "list_note_tabs", func() map[string]any { return read }, "DENY connection_revoked"},
	}
	for _, s := range steps {
		if s.owner != nil {
			s.owner()
		}
		got := call(s.tool, s.args())
		if got != s.want && !(s.want == "ERR" && strings.HasPrefix(got, "ERR") && strings.Contains(got, "owner declined")) {
			t.Fatalf("step %s: got %s, want %s", s.name, got, s.want)
		}
		t.Logf("%-45s %s", s.name, got)
	}
	n, err := w.notes.GetNote(bg, "note-a1")
	must(t, err)
	if txt := *n.Tabs[0].Text; txt != "- ship\n- v2" {
		t.Fatalf("step 6 did not save: %q", txt)
	}
}
