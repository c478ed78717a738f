package msgres_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/connect/msgres"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// world is the real Notes and message stores behind a running Connected
// endpoint, with workspace ws-acme and its projects proj-a (Launch) and
// proj-b (Finance), each with its discussion channel.
type world struct {
	notes        *notes.Store
	msgs         *messages.Store
	svc          *connect.Service
	srv          *connect.Server
	discA, discB messages.Channel
}

// worldOptions change a world: the message store's options and the
// Connected service's.
type worldOptions struct {
	msgs    messages.Options
	connect func(*connect.Options)
}

func newWorld(t *testing.T, opts ...worldOptions) *world {
	t.Helper()
	var o worldOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	must(t, err)
	_, err = st.CreateWorkspace(bg, "ws-acme", "Acme")
	must(t, err)
	_, err = st.CreateProject(bg, "ws-acme", "proj-a", "Launch")
	must(t, err)
	_, err = st.CreateProject(bg, "ws-acme", "proj-b", "Finance")
	must(t, err)
	ms, err := messages.Open(db, o.msgs)
	must(t, err)
	must(t, ms.EnsureDiscussions(bg))
	w := &world{notes: st, msgs: ms}
	w.discA, err = ms.ProjectDiscussion(bg, "proj-a")
	must(t, err)
	w.discB, err = ms.ProjectDiscussion(bg, "proj-b")
	must(t, err)

	co := connect.Options{Resources: msgres.Resources{Resources: notesres.New(st), S: ms},
		Extra: []connect.ToolSource{msgres.Source{S: ms}}, Imports: notesres.Imports(st)}
	if o.connect != nil {
		o.connect(&co)
	}
	w.svc, err = connect.Open(bg, db, co)
	must(t, err)
	ms.SetNameOf(msgres.NameOf(w.svc))
	w.srv, err = connect.NewServer(w.svc, connect.ServerConfig{})
	must(t, err)
	must(t, w.srv.Start("127.0.0.1:0"))
	t.Cleanup(func() { w.srv.Close(bg) })
	return w
}

// goClient connects the Go SDK client after a real OAuth flow (discovery,
// dynamic registration, PKCE, the consent page) that picks the pending
// connection named display; it returns a call that gives a tool's text and
// whether it was a tool error.
func (w *world) goClient(t *testing.T, display string) func(tool string, args map[string]any) (string, bool) {
	t.Helper()
	b := connecttest.NewBrowser(w.srv.BaseURL())
	link, _ := w.srv.SignInURL(bg, connect.OwnerID, 0)
	must(t, b.SignIn(link))
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Claude (Go SDK)", RedirectURIs: []string{"http://127.0.0.1:33419/callback"}}},
		AuthorizationCodeFetcher: func(ctx context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			loc, err := b.Approve(a.URL, "ws-acme", "Use pending: "+display)
			if err != nil {
				return nil, err
			}
			q := loc.Query()
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		},
		ScopeFilter: func([]string) []string { return []string{"osfoundry:read", "osfoundry:write"} },
	})
	must(t, err)
	ctx, cancel := context.WithTimeout(bg, 2*time.Minute)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: w.srv.ResourceURL(), OAuthHandler: h, DisableStandaloneSSE: true}, nil)
	must(t, err)
	t.Cleanup(func() { cs.Close() })
	return func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		must(t, err)
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
}
