package notesres_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
)

// tsSDK finds node and the TypeScript SDK that build/scripts/node-mcp.sh installs.
func tsSDK(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; install Node.js 20+ to run the TypeScript client test")
	}
	dir, _ = filepath.Abs(filepath.Join("..", "..", "..", "build", "node-mcp", "node_modules", "@modelcontextprotocol", "sdk"))
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		t.Skip("@modelcontextprotocol/sdk is not installed; run build/scripts/node-mcp.sh")
	}
	return node, dir
}

// tsHost is the TypeScript client in a child process; the test is its
// user's browser (AUTHORIZE → consent → CODE).
type tsHost struct {
	t      *testing.T
	in     io.Writer
	out    *bufio.Scanner
	b      *connecttest.Browser
	choice string
	iss    string
	auths  []string
}

func (h *tsHost) send(cmd string) string {
	h.t.Helper()
	fmt.Fprintln(h.in, cmd)
	for h.out.Scan() {
		line := h.out.Text()
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "AUTHORIZE":
			h.auths = append(h.auths, rest)
			loc, err := h.b.Approve(rest, "ws-acme", h.choice)
			if err != nil {
				h.t.Fatalf("consent: %v", err)
			}
			fmt.Fprintf(h.in, "CODE %s %s\n", loc.Query().Get("code"), loc.Query().Get("iss"))
			h.iss = loc.Query().Get("iss")
		case "RESULT":
			return rest
		default:
			h.t.Logf("node: %s", line)
		}
	}
	h.t.Fatalf("node exited: %v", h.out.Err())
	return ""
}

func (h *tsHost) call(tool string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"tool": tool, "args": args})
	return h.send("CALL " + string(b))
}

// TestScenarioTypeScriptSDK runs the 9-step scenario with the official
// TypeScript client: discovery, DCR, PKCE, token and refresh are the SDK's.
func TestScenarioTypeScriptSDK(t *testing.T) {
	node, sdk := tsSDK(t)
	w := newWorld(t)
	pending, err := w.svc.CreateConnection(bg, "ChatGPT", "ChatGPT dev mode")
	must(t, err)
	b := connecttest.NewBrowser(w.srv.BaseURL())
	link, _ := w.srv.SignInURL(bg, connect.OwnerID, 0)
	must(t, b.SignIn(link))

	ctx, cancel := context.WithTimeout(bg, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("..", "testdata", "tsclient.mjs"), sdk, w.srv.ResourceURL())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	must(t, cmd.Start())
	defer func() {
		stdin.Close()
		cmd.Wait()
		if t.Failed() {
			t.Logf("node stderr:\n%s", stderr.String())
		}
	}()
	h := &tsHost{t: t, in: stdin, out: bufio.NewScanner(stdout), b: b, choice: "Use pending: ChatGPT dev mode"}

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
			h.choice = "Keep using: ChatGPT dev mode"
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
	if len(h.auths) != 2 || h.iss != w.srv.BaseURL() {
		t.Fatalf("authorization rounds %d (want 2: first call, step 6), iss %q", len(h.auths), h.iss)
	}
	first, _ := url.Parse(h.auths[0])
	if first.Query().Get("resource") != w.srv.ResourceURL() || first.Query().Get("code_challenge_method") != "S256" {
		t.Fatalf("TS authorization request %s", h.auths[0])
	}
	if cs, _ := w.svc.Connections(bg); len(cs) != 1 {
		t.Fatalf("%d connections, want the pending one reused", len(cs))
	}
}
