package workers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/tools"
)

var runTools = []string{"request_session_run", "run_graph_session", "cancel_graph_run"}

// connectWorld is the Connected endpoint over the real notes store with
// the workers' run tools, on loopback, the owner signed in.
type connectWorld struct {
	*orchRig
	svc  *connect.Service
	srv  *connect.Server
	b    *connecttest.Browser
	seen []string // connection ids handed out
}

func newConnectWorld(t *testing.T) *connectWorld {
	t.Helper()
	r := newOrchRig(t)
	ctx := context.Background()
	_, err := r.notes.CreateWorkspace(ctx, "ws-acme", "Acme")
	must(t, err)
	for _, p := range []string{"proj-a", "proj-b"} {
		_, err := r.notes.CreateProject(ctx, "ws-acme", p, p)
		must(t, err)
	}
	svc, err := connect.Open(ctx, r.db, connect.Options{Resources: notesres.New(r.notes), Runner: r.w.ConnectRunner()})
	must(t, err)
	srv, err := connect.NewServer(svc, connect.ServerConfig{})
	must(t, err)
	must(t, srv.Start("127.0.0.1:0"))
	t.Cleanup(func() { srv.Close(context.Background()) })
	b := connecttest.NewBrowser(srv.BaseURL())
	link, err := srv.SignInURL(ctx, connect.OwnerID, 0)
	must(t, err)
	must(t, b.SignIn(link))
	return &connectWorld{orchRig: r, svc: svc, srv: srv, b: b}
}

// client connects an assistant asking for scope and returns it with its
// connection.
func (w *connectWorld) client(t *testing.T, name, scope string) (*connecttest.Client, connect.Connection) {
	t.Helper()
	c := &connecttest.Client{HTTP: &http.Client{}, Resource: w.srv.ResourceURL(), Browser: w.b, Redirect: "http://127.0.0.1:1/cb", Name: name, Scope: scope}
	tok, _, err := c.Discover(context.Background())
	must(t, err)
	if tok.Scope != scope {
		t.Fatalf("granted %q, asked %q", tok.Scope, scope)
	}
	conns, err := w.svc.Connections(context.Background())
	must(t, err)
	for _, conn := range conns {
		if strings.Join(conn.Scopes, " ") == scope && !slices.Contains(w.seen, conn.ID) {
			w.seen = append(w.seen, conn.ID)
			return c, conn
		}
	}
	t.Fatalf("no new connection with scope %q in %+v", scope, conns)
	return nil, connect.Connection{}
}

func call(t *testing.T, c *connecttest.Client, tool string, args any) (connecttest.CallResult, orchestrate.Status) {
	t.Helper()
	res, err := c.Call(context.Background(), tool, args)
	must(t, err)
	var st orchestrate.Status
	if res.Status == http.StatusOK && !res.IsError {
		must(t, json.Unmarshal([]byte(res.Text), &st))
	}
	return res, st
}

func TestConnectedEndpointListsTheRunTools(t *testing.T) {
	w := newConnectWorld(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	req, _ := http.NewRequest(http.MethodPost, w.srv.ResourceURL(), bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Result struct {
			Tools []struct {
				Name        string `json:"name"`
				Annotations struct {
					ReadOnlyHint bool `json:"readOnlyHint"`
				} `json:"annotations"`
				Meta struct {
					Schemes []struct {
						Scopes []string `json:"scopes"`
					} `json:"securitySchemes"`
				} `json:"_meta"`
			} `json:"tools"`
		} `json:"result"`
	}
	must(t, json.Unmarshal(raw, &out))
	found := 0
	for _, tl := range out.Result.Tools {
		if !slices.Contains(runTools, tl.Name) {
			continue
		}
		found++
		if tl.Annotations.ReadOnlyHint || len(tl.Meta.Schemes) != 1 || !slices.Equal(tl.Meta.Schemes[0].Scopes, []string{tools.ScopeRun}) {
			t.Errorf("%s listed as %+v", tl.Name, tl)
		}
	}
	if found != len(runTools) {
		t.Fatalf("tools/list has %d of the run tools: %s", found, raw)
	}
	// Without a runner the endpoint offers none of them.
	bare, err := connect.Open(context.Background(), w.db, connect.Options{Resources: notesres.New(w.notes)})
	must(t, err)
	for _, n := range runTools {
		if slices.Contains(bare.ToolNames(), n) {
			t.Errorf("%s offered without a runner", n)
		}
	}
}

func TestRequestSessionRunNeedsTheRunScope(t *testing.T) {
	w := newConnectWorld(t)
	ctx := context.Background()
	start := map[string]any{"project_id": "proj-a", "role": "Researcher", "task": "Summarise the launch notes"}

	ro, roConn := w.client(t, "read-only", tools.ScopeRead)
	must(t, w.svc.AddProject(ctx, roConn.ID, "proj-a"))
	res, _ := call(t, ro, "request_session_run", start)
	if res.Status != http.StatusForbidden || !strings.Contains(res.Text, "needs osfoundry:run") {
		t.Fatalf("read-only token: %+v, want 403 insufficient_scope", res)
	}

	c, conn := w.client(t, "runner", tools.ScopeRead+" "+tools.ScopeRun)
	res, _ = call(t, c, "request_session_run", start)
	if !res.IsError || !strings.Contains(res.Text, connect.DenyNotInProject) {
		t.Fatalf("before the owner added the project: %+v", res)
	}
	must(t, w.svc.AddProject(ctx, conn.ID, "proj-a"))
	res, _ = call(t, c, "request_session_run", map[string]any{"role": "Researcher", "task": "x"})
	if !res.IsError || !strings.Contains(res.Text, "project_id is required") {
		t.Fatalf("without a project: %+v", res)
	}

	res, st := call(t, c, "request_session_run", start)
	if res.Status != http.StatusOK || res.IsError || st.Kind != orchestrate.KindRun || st.Steps[0].RunID == "" {
		t.Fatalf("start: %+v", res)
	}
	runID := st.Steps[0].RunID
	_, st = call(t, c, "request_session_run", map[string]any{"run_id": runID, "wait_seconds": 60})
	if st.State != orchestrate.StateDone || st.Answer != "Researcher finished" {
		t.Fatalf("read back: %+v", st)
	}
	run, err := w.w.Chat.GetRun(ctx, runID)
	must(t, err)
	if run.Role != "Researcher" || run.State != runs.StateDone || run.Title != "Assistant: Researcher · Summarise the launch notes" {
		t.Errorf("pipeline run = %+v", run)
	}
	other, _ := w.client(t, "other", tools.ScopeRun)
	res, _ = call(t, other, "request_session_run", map[string]any{"run_id": runID})
	if !res.IsError || !strings.Contains(res.Text, "no such job") {
		t.Errorf("another connection read the run: %+v", res)
	}

	// The run's bridge: bound unattended, no orchestration, none of the
	// owner's cross-project tools.
	_, st = call(t, c, "request_session_run", map[string]any{"project_id": "proj-a", "task": "LIST", "wait_seconds": 60})
	if st.State != orchestrate.StateDone || strings.Contains(st.Answer, "spawn_fleet") || strings.Contains(st.Answer, "memory_search") ||
		!strings.Contains(st.Answer, "code_search") {
		t.Errorf("an assistant's Worker run was offered: %+v", st)
	}
}

func TestGraphSessionFromAnAssistant(t *testing.T) {
	w := newConnectWorld(t)
	c, conn := w.client(t, "runner", tools.ScopeRun)
	must(t, w.svc.AddProject(context.Background(), conn.ID, "proj-a"))

	_, st := call(t, c, "run_graph_session", map[string]any{"project_id": "proj-a", "task": "Check the docs",
		"stages": []any{"Researcher", "Reviewer"}, "wait_seconds": 60})
	if st.Kind != orchestrate.KindGraph || st.State != orchestrate.StateDone || st.Answer != "Reviewer finished" || len(st.Steps) != 2 {
		t.Fatalf("graph: %+v", st)
	}

	_, st = call(t, c, "run_graph_session", map[string]any{"project_id": "proj-a", "task": "Ship",
		"stages": []any{map[string]string{"role": "Worker", "task": "HANG"}, "Reviewer"}})
	if st.State != orchestrate.StateRunning {
		t.Fatalf("hanging graph: %+v", st)
	}
	res, got := call(t, c, "cancel_graph_run", map[string]any{"graph_run_id": st.ID})
	if res.IsError || got.State != orchestrate.StateCancelled || got.Steps[1].State != orchestrate.StateSkipped {
		t.Fatalf("cancel: %+v %+v", res, got)
	}
	res, _ = call(t, c, "cancel_graph_run", map[string]any{"graph_run_id": "graph_unknown"})
	if !res.IsError || !strings.Contains(res.Text, "no such job") {
		t.Errorf("unknown graph: %+v", res)
	}
	acts, err := w.svc.RecentActivity(context.Background(), conn.ID, 50)
	must(t, err)
	var seen []string
	for _, a := range acts {
		seen = append(seen, a.Tool)
	}
	for _, n := range runTools[1:] {
		if !slices.Contains(seen, n) {
			t.Errorf("Recent activity lacks %s: %v", n, seen)
		}
	}
}
