package msgres_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
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

var bg = context.Background()

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestChannelMembershipOverTheWire drives the two message tools with the
// Go SDK client against the real Connected endpoint: a project opens only
// its discussion channel, other channels need an explicit invite, a
// private channel only its owner's; posts carry the connection's name and
// an idempotency key never posts twice.
func TestChannelMembershipOverTheWire(t *testing.T) {
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
	ms, err := messages.Open(db, messages.Options{})
	must(t, err)
	must(t, ms.EnsureDiscussions(bg))
	discA, err := ms.ProjectDiscussion(bg, "proj-a")
	must(t, err)
	discB, err := ms.ProjectDiscussion(bg, "proj-b")
	must(t, err)
	general, err := ms.CreateChannel(bg, messages.NewChannel{Workspace: "ws-acme", Project: "proj-a", Name: "general"})
	must(t, err)
	secret, err := ms.CreateChannel(bg, messages.NewChannel{Workspace: "ws-acme", Project: "proj-a", Name: "secret", Private: true, Owner: "alice"})
	must(t, err)

	svc, err := connect.Open(bg, db, connect.Options{Resources: msgres.Resources{Resources: notesres.New(st), S: ms},
		Extra: []connect.ToolSource{msgres.Source{S: ms}}})
	must(t, err)
	ms.SetNameOf(msgres.NameOf(svc))
	srv, err := connect.NewServer(svc, connect.ServerConfig{})
	must(t, err)
	must(t, srv.Start("127.0.0.1:0"))
	t.Cleanup(func() { srv.Close(bg) })

	pending, err := svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	b := connecttest.NewBrowser(srv.BaseURL())
	link, _ := srv.SignInURL(bg, connect.OwnerID, 0)
	must(t, b.SignIn(link))
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Claude (Go SDK)", RedirectURIs: []string{"http://127.0.0.1:33419/callback"}}},
		AuthorizationCodeFetcher: func(ctx context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			loc, err := b.Approve(a.URL, "ws-acme", "Use pending: Claude chat")
			if err != nil {
				return nil, err
			}
			q := loc.Query()
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		},
		ScopeFilter: func([]string) []string { return []string{"osfoundry:read", "osfoundry:write"} },
	})
	must(t, err)
	ctx, cancel := context.WithTimeout(bg, time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: srv.ResourceURL(), OAuthHandler: h, DisableStandaloneSSE: true}, nil)
	must(t, err)
	defer cs.Close()

	call := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		must(t, err)
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	list := func(ch string) map[string]any { return map[string]any{"channel_id": ch} }
	post := func(ch, text, key string) map[string]any {
		return map[string]any{"channel_id": ch, "text": text, "idempotency_key": key}
	}
	steps := []struct {
		name      string
		owner     func()
		tool      string
		args      map[string]any
		wantError bool
		want      string
	}{
		{"project A added: its discussion channel is listed", func() { must(t, svc.AddProject(bg, pending.ID, "proj-a")) },
			"list_project_resources", map[string]any{}, false, discA.ID},
		{"discussion channel of a granted project reads", nil, "list_channel_messages", list(discA.ID), false, `"messages": []`},
		{"and takes a post", nil, "post_channel_message", post(discA.ID, "Refunds take 5 days.", "k1"), false, `"author_name": "Claude chat"`},
		{"a retry with the same key replays", nil, "post_channel_message", post(discA.ID, "Refunds take 5 days.", "k1"), false, `"replayed": true`},
		{"the same key for another post is refused", nil, "post_channel_message", post(discA.ID, "other", "k1"), true, "already used"},
		{"another project's discussion channel is closed", nil, "list_channel_messages", list(discB.ID), true, "not_invited"},
		{"a non-discussion channel of a granted project needs an invite", nil, "list_channel_messages", list(general.ID), true, "not_invited"},
		{"after the invite it opens", func() { must(t, svc.InviteChannel(bg, pending.ID, general.ID, connect.OwnerID)) },
			"post_channel_message", post(general.ID, "hi", "k2"), false, `"status": "posted"`},
		{"a private channel ignores another person's invite", func() { must(t, svc.InviteChannel(bg, pending.ID, secret.ID, connect.OwnerID)) },
			"list_channel_messages", list(secret.ID), true, "not_invited"},
		{"its owner's invite opens it", func() {
			must(t, svc.RemoveChannel(bg, pending.ID, secret.ID))
			must(t, svc.InviteChannel(bg, pending.ID, secret.ID, "alice"))
		}, "list_channel_messages", list(secret.ID), false, `"channel_name": "secret"`},
		{"an oversized post says the limit", nil, "post_channel_message", post(discA.ID, strings.Repeat("x", 4001), "k3"), true, "the limit is 4000"},
		{"an unknown channel is not found", nil, "list_channel_messages", list("ch_nope"), true, "not_found"},
	}
	for _, s := range steps {
		if s.owner != nil {
			s.owner()
		}
		text, isErr := call(s.tool, s.args)
		if isErr != s.wantError || !strings.Contains(text, s.want) {
			t.Fatalf("%s: got error=%v %s; want error=%v containing %q", s.name, isErr, text, s.wantError, s.want)
		}
	}
	got, err := ms.ListMessages(bg, discA.ID, 0, 0)
	must(t, err)
	if len(got) != 1 || got[0].AuthorKind != messages.AuthorAssistant || got[0].AuthorName != "Claude chat" {
		b, _ := json.Marshal(got)
		t.Fatalf("discussion channel holds %s; want the one post by Claude chat", b)
	}
}
