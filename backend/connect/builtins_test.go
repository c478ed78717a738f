package connect

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// noteImports is the notes store's side of file imports over the fake
// notes (notesres.Imports is tested over the real store): it records the
// files written into note-a1.
type noteImports struct {
	mu      sync.Mutex
	written []ImportFile
}

func (n *noteImports) Destination(_ context.Context, project, into, id string, _ []string) (string, map[string]string, error) {
	if into != ImportIntoNote || id != "note-a1" || project != "proj-a" {
		return "", nil, fmt.Errorf("%w: %s", ErrNoDestination, id)
	}
	return "Q3 launch checklist", map[string]string{}, nil
}

func (n *noteImports) Import(_ context.Context, _, _, _ string, files []ImportFile, _ string) ([]Imported, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.written = append(n.written, files...)
	return []Imported{{Name: files[0].Name, ID: "tab-2", Version: 2}}, nil
}

func TestProposalsWaitForTheOwner(t *testing.T) {
	imports := &noteImports{}
	e := newEnvOpts(t, ServerConfig{}, func(o *Options) { o.Imports = imports })
	// Without a forge the endpoint cannot open pull requests: not offered.
	if !slices.Contains(e.svc.cat.order, "propose_file_import") || slices.Contains(e.svc.cat.order, "propose_pull_request") {
		t.Fatalf("tools offered: %v", e.svc.cat.order)
	}
	g := e.login(e.browser(true), "osfoundry:read osfoundry:write", false)
	conn := e.onlyConnection()
	panel := NewPanel(bg, e.svc, e.srv)
	args := map[string]any{"project_id": "proj-a", "into": "note", "destination_id": "note-a1", "title": "Fix the footer",
		"files": []map[string]string{{"name": "footer.md", "content": "Footer"}}}
	if _, got := e.callTool(g.access, "propose_file_import", args); got != "DENY not_in_project" {
		t.Fatalf("proposal to a project not added: %s", got)
	}
	if _, err := panel.AddToProject(conn.ID, "proj-a"); err != nil {
		t.Fatal(err)
	}
	if _, got := e.callTool(g.access, "propose_file_import", args); got != "OK" {
		t.Fatalf("proposal: %s", got)
	}
	ps, err := panel.NeedsApproval()
	if err != nil || len(ps) != 1 || ps[0].Title != "Fix the footer" || ps[0].Files[0] != "footer.md" || ps[0].Connection != conn.DisplayName ||
		ps[0].Target != "Q3 launch checklist" || len(ps[0].Changes) != 1 || !ps[0].Changes[0].Added {
		t.Fatalf("needs approval: %+v %v", ps, err)
	}
	if len(imports.written) != 0 {
		t.Fatal("files were written before the owner approved")
	}
	if _, got := e.callTool(g.access, "get_proposal_status", map[string]any{"proposal_id": ps[0].ID}); got != "OK" {
		t.Fatalf("status: %s", got)
	}
	p, err := panel.Approve(ps[0].ID)
	if err != nil || p.Status != "approved" || p.DecidedBy != OwnerID || len(p.Imported) != 1 || p.Imported[0].Version != 2 {
		t.Fatalf("approve: %+v %v", p, err)
	}
	if len(imports.written) != 1 || imports.written[0].Content != "Footer" {
		t.Fatalf("written: %+v", imports.written)
	}
	if _, err := panel.Decline(ps[0].ID); err == nil {
		t.Fatal("a decided proposal was decided again")
	}
	if left, _ := panel.NeedsApproval(); len(left) != 0 {
		t.Fatalf("still waiting: %+v", left)
	}
}

func TestLinkCurrentChat(t *testing.T) {
	e := newEnv(t)
	g := e.login(e.browser(true), "osfoundry:read osfoundry:write", false)
	conn := e.onlyConnection()
	must(t, e.svc.AddProject(bg, conn.ID, "proj-a"))
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"project_id": "proj-a", "label": "Claude – launch"}, "OK"},
		{map[string]any{"project_id": "proj-b", "label": "Claude – budget"}, "DENY not_in_project"},
		{map[string]any{"project_id": "proj-a", "label": ""}, "DENY label is required (at most 120 characters)"},
		{map[string]any{"label": "x"}, "DENY invalid_arguments"},
	}
	for _, c := range cases {
		if _, got := e.callTool(g.access, "link_current_chat", c.args); got != c.want {
			t.Errorf("%v: got %s, want %s", c.args, got, c.want)
		}
	}
	var label string
	e.db.QueryRow(`SELECT label FROM connect_chat_links WHERE connection_id = ?`, conn.ID).Scan(&label)
	if label != "Claude – launch" {
		t.Fatalf("stored label %q", label)
	}
	// The owner sees the linked chat under its project, and only while
	// the project is still added.
	c, err := NewPanel(bg, e.svc, e.srv).Connections()
	must(t, err)
	if len(c) != 1 || len(c[0].ChatLinks) != 1 || c[0].ChatLinks[0].Project != "proj-a" || c[0].ChatLinks[0].Label != "Claude – launch" ||
		c[0].ChatLinks[0].LinkedAt.IsZero() {
		t.Fatalf("linked chats: %+v", c)
	}
	must(t, e.svc.RemoveProject(bg, conn.ID, "proj-a"))
	if got, _ := e.svc.Connection(bg, conn.ID); len(got.ChatLinks) != 0 {
		t.Fatalf("a chat linked to a removed project is still shown: %+v", got.ChatLinks)
	}
}

// fakeRunner offers the run tools; a session belongs to a project.
type fakeRunner struct{ runs int }

func (r *fakeRunner) Tools() []tools.Tool {
	mk := func(name string) tools.Tool {
		return tools.Tool{Meta: tools.Meta{Name: name, Scope: tools.ScopeRun, Description: name,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"session_id":{"type":"string"}},"required":["session_id"]}`)},
			Handler: func(context.Context, tools.Call) (tools.Result, error) {
				r.runs++
				return tools.Result{Text: "started"}, nil
			}}
	}
	return []tools.Tool{mk("request_session_run"), mk("run_graph_session"), mk("cancel_graph_run")}
}

func (r *fakeRunner) CallTarget(_ context.Context, _ string, args json.RawMessage) (Target, error) {
	var a struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(args, &a)
	return Target{Kind: "session", ID: a.SessionID, Workspace: "ws-acme", Project: "proj-a"}, nil
}

func TestRunToolsOnlyWithARunner(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "db"))
	must(t, err)
	defer db.Close()
	r := &fakeRunner{}
	svc, err := Open(bg, db, Options{Resources: newFakeNotes(), Runner: r})
	must(t, err)
	if svc.ScopeFor("run_graph_session") != tools.ScopeRun {
		t.Fatal("run tools missing with a runner")
	}
	e := newEnv(t) // no runner
	if e.svc.ScopeFor("run_graph_session") != "" {
		t.Fatal("run tools offered without a runner")
	}
	srv, err := NewServer(svc, ServerConfig{})
	must(t, err)
	must(t, srv.Start("127.0.0.1:0"))
	defer srv.Close(bg)
	e.srv, e.svc = srv, svc
	g := e.login(e.browser(true), "osfoundry:read", false)
	resp, _ := e.rpc(srv.BaseURL(), g.access, "", "tools/call", map[string]any{"name": "run_graph_session", "arguments": map[string]any{"session_id": "s1"}})
	if resp.StatusCode != http.StatusForbidden || r.runs != 0 {
		t.Fatalf("run without osfoundry:run: %d, runs %d", resp.StatusCode, r.runs)
	}
	g = e.login(e.browser(true), "osfoundry:read osfoundry:run", false)
	cs, _ := svc.Connections(bg)
	for _, c := range cs {
		must(t, svc.AddProject(bg, c.ID, "proj-a"))
	}
	if _, got := e.callTool(g.access, "run_graph_session", map[string]any{"session_id": "s1"}); got != "OK" || r.runs != 1 {
		t.Fatalf("run: %s, runs %d", got, r.runs)
	}
	// An editor who approves with osfoundry:run has no runner role: the
	// scope alone starts nothing (the team server grants runners).
	editor, err := svc.AddUser(bg, "Dana")
	must(t, err)
	must(t, svc.SetRole(bg, editor.ID, "ws-acme", "", "editor"))
	b := e.browser(false)
	link, _ := srv.SignInURL(bg, editor.ID, 0)
	b.get(link)
	g = e.login(b, "osfoundry:read osfoundry:run", false)
	cs, _ = svc.Connections(bg)
	must(t, svc.AddProject(bg, cs[0].ID, "proj-a"))
	if cs[0].Approver != editor.ID {
		t.Fatalf("the newest connection is %+v", cs[0])
	}
	if _, got := e.callTool(g.access, "run_graph_session", map[string]any{"session_id": "s1"}); got != "DENY runner_role_required" || r.runs != 1 {
		t.Fatalf("an editor's run: %s, runs %d", got, r.runs)
	}
}
