package notesres_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
)

// tsClient starts the TypeScript SDK client against w's endpoint, or
// skips when node or the SDK is not installed.
func tsClient(t *testing.T, w *world, choice string) (*connecttest.TSClient, *tsHost) {
	t.Helper()
	node, sdk, err := connecttest.FindTSSDK(filepath.Join("..", "..", ".."))
	if errors.Is(err, connecttest.ErrNoTSSDK) {
		t.Skip(err)
	}
	must(t, err)
	b := connecttest.NewBrowser(w.srv.BaseURL())
	link, _ := w.srv.SignInURL(bg, connect.OwnerID, 0)
	must(t, b.SignIn(link))
	ctx, cancel := context.WithTimeout(bg, 2*time.Minute)
	c, err := connecttest.StartTSClient(ctx, node, sdk, filepath.Join("..", "testdata", "tsclient.mjs"), w.srv.ResourceURL(), b, "ws-acme", choice)
	must(t, err)
	c.Logf = t.Logf
	t.Cleanup(func() {
		stderr := c.Close()
		cancel()
		if t.Failed() {
			t.Logf("node stderr:\n%s", stderr)
		}
	})
	return c, &tsHost{t: t, c: c}
}

// tsHost fails the test when the client cannot answer.
type tsHost struct {
	t *testing.T
	c *connecttest.TSClient
}

func (h *tsHost) send(cmd string) string {
	h.t.Helper()
	r, err := h.c.Send(cmd)
	must(h.t, err)
	return r
}

func (h *tsHost) call(tool string, args map[string]any) string {
	h.t.Helper()
	r, err := h.c.Call(tool, args)
	must(h.t, err)
	return r
}

// TestScenarioTypeScriptSDK runs the 9-step scenario with the official
// TypeScript client: discovery, DCR, PKCE, token and refresh are the SDK's.
func TestScenarioTypeScriptSDK(t *testing.T) {
	w := newWorld(t)
	pending, err := w.svc.CreateConnection(bg, "ChatGPT", "ChatGPT dev mode")
	must(t, err)
	c, h := tsClient(t, w, "Use pending: ChatGPT dev mode")

	note := func() (string, int64) {
		n, err := w.notes.GetNote(bg, "note-a1")
		must(t, err)
		return n.Tabs[0].ID, n.Version
	}
	read := map[string]any{"note_id": "note-a1"}
	edit := func() map[string]any {
		tab, v := note()
		return map[string]any{"note_id": "note-a1", "tab_id": tab, "expected_version": v,
			"idempotency_key": fmt.Sprintf("ts-%d", time.Now().UnixNano()), "operation": "replace_text", "text": "- ship\n- v2"}
	}
	steps := []struct {
		name  string
		owner func()
		do    func() string
		want  string
	}{
		{"1 fresh connection, no project yet", nil, func() string { return h.call("list_project_resources", map[string]any{}) }, `OK []`},
		{"2 after owner adds project A", func() { must(t, w.svc.AddProject(bg, pending.ID, "proj-a")) },
			func() string { return h.call("list_project_resources", map[string]any{}) }, `OK ["note-a1"]`},
		{"3 read note in A", nil, func() string { return h.call("list_note_tabs", read) }, "OK Q3 launch checklist"},
		{"4 read note in B (never added)", nil, func() string { return h.call("list_note_tabs", map[string]any{"note_id": "note-b1"}) }, "DENY not_in_project"},
		// The SDK refreshes (same scopes) and retries once, then reports the 403.
		{"5 write with a read-only token", nil, func() string { return h.call("edit_note_tab", edit()) }, "ERR 403"},
		{"6 write with read+write token", func() {
			c.Choice = "Keep using: ChatGPT dev mode"
			if r := h.send("RESET osfoundry:read osfoundry:write"); r != "OK reset" {
				t.Fatalf("reset: %s", r)
			}
		}, func() string { return h.call("edit_note_tab", edit()) }, "OK saved"},
		{"7 same read after note moved to B", func() { must(t, w.notes.MoveNote(bg, "note-a1", "proj-b")) }, func() string { return h.call("list_note_tabs", read) }, "DENY not_in_project"},
		{"7b note back in A", func() { must(t, w.notes.MoveNote(bg, "note-a1", "proj-a")) }, func() string { return h.call("list_note_tabs", read) }, "OK Q3 launch checklist"},
		{"8 same read after owner removes project A", func() { must(t, w.svc.RemoveProject(bg, pending.ID, "proj-a")) }, func() string { return h.call("list_note_tabs", read) }, "DENY not_in_project"},
		{"9 same read after revoke", func() {
			must(t, w.svc.AddProject(bg, pending.ID, "proj-a"))
			must(t, w.svc.Revoke(bg, pending.ID))
		}, func() string { return h.call("list_note_tabs", read) }, "DENY connection_revoked"},
	}
	for _, s := range steps {
		if s.owner != nil {
			s.owner()
		}
		got := s.do()
		if got != s.want && !(strings.HasPrefix(s.want, "ERR") && strings.HasPrefix(got, s.want)) {
			t.Fatalf("step %s: got %s, want %s", s.name, got, s.want)
		}
		t.Logf("%-45s %s", s.name, got)
	}
	if len(c.Auths) != 2 || c.Iss != w.srv.BaseURL() {
		t.Fatalf("authorization rounds %d (want 2: first call, step 6), iss %q", len(c.Auths), c.Iss)
	}
	first, _ := url.Parse(c.Auths[0])
	if first.Query().Get("resource") != w.srv.ResourceURL() || first.Query().Get("code_challenge_method") != "S256" {
		t.Fatalf("TS authorization request %s", c.Auths[0])
	}
	if cs, _ := w.svc.Connections(bg); len(cs) != 1 {
		t.Fatalf("%d connections, want the pending one reused", len(cs))
	}
}
