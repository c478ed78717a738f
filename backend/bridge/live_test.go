package bridge

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/tools"
)

// Live tests: the real pinned Claude Code and Codex, started with docs/reference.md §3's
// bridge flags, against the fake model scripted to call memory_search and
// then secret_tool (registered in the app, not on this run's list). They
// skip when build/scripts/agents.sh has not installed the CLIs.

const liveTimeout = 120 * time.Second

var (
	memName    = fakemodel.MCPName("osfoundry", "memory_search")
	secretName = fakemodel.MCPName("osfoundry", "secret_tool")
	memArgs    = map[string]any{"query": "release", "workspace": "ws-other"}
)

func runAgent(t *testing.T, e *agentenv.Env, args ...string) string {
	t.Helper()
	out, _, err := e.Output(liveTimeout, args...)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// checkLive asserts the outcome both agents must produce.
func checkLive(t *testing.T, r *rig, srv *fakemodel.Server, stdout string) {
	t.Helper()
	var results []fakemodel.ToolResult
	for _, req := range srv.MainRequests() {
		results = req.ToolResults() // each request carries the whole history
	}
	var memText string
	var secret *fakemodel.ToolResult
	for i, res := range results {
		switch {
		case strings.Contains(res.Text, "Release checklist"):
			memText = res.Text
		case strings.Contains(res.Text, "secret_tool") || strings.Contains(strings.ToLower(res.Text), "not available") ||
			strings.Contains(strings.ToLower(res.Text), "unsupported") || strings.Contains(strings.ToLower(res.Text), "no such tool"):
			secret = &results[i]
		}
	}
	if memText == "" {
		t.Fatalf("the model never got memory_search data back; tool results: %+v\nstdout:\n%s", results, stdout)
	}
	if strings.Contains(memText, "Release secrets") {
		t.Fatalf("memory_search crossed into the workspace named in the arguments: %s", memText)
	}
	if secret == nil {
		t.Fatalf("no refusal reached the model for secret_tool; tool results: %+v", results)
	}
	t.Logf("the model saw for secret_tool: %q (bridge refusals audited: %d)", secret.Text, len(r.entries("secret_tool")))
	if strings.Contains(secret.Text, "leaked") {
		t.Fatalf("secret_tool ran: %+v", secret)
	}
	if n := r.forbidden.Load(); n != 0 {
		t.Fatalf("secret_tool's handler ran %d times", n)
	}
	for _, e := range r.entries("secret_tool") {
		if e.Decision != tools.DecisionNotAvailable {
			t.Fatalf("secret_tool audit entry %+v: it must only ever be refused", e)
		}
	}
	ms := r.entries("memory_search")
	if len(ms) != 1 || ms[0].Decision != tools.DecisionRan || ms[0].Workspace != "ws-home" {
		t.Fatalf("memory_search audit = %+v, want one run in ws-home", ms)
	}
	if ws := r.mem.searchedIn(); len(ws) != 1 || ws[0] != "ws-home" {
		t.Fatalf("searches ran in %v", ws)
	}
}

func TestLiveClaudeCode(t *testing.T) {
	srv := fakemodel.Start(t,
		// Claude Code 2.1.x defers MCP tools behind ToolSearch.
		fakemodel.ClaudeToolSearch(memName, secretName),
		fakemodel.ClaudeMCP("osfoundry", "memory_search", memArgs),
		fakemodel.ClaudeMCP("osfoundry", "secret_tool", map[string]any{}),
		fakemodel.Text("Found the release checklist."),
	)
	// IS_SANDBOX=1: Claude Code refuses bypassPermissions as root otherwise
	// (CI containers run as root).
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	r := newRig(t)
	b := r.start(t, "memory_search")
	mcpCfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"osfoundry": map[string]any{
		"type": "http", "url": b.URL(), "headers": map[string]string{"Authorization": "Bearer " + b.Token()}, "timeout": 120000,
	}}})
	out := runAgent(t, e, "-p", "Find the release checklist in my notes.",
		"--output-format", "stream-json", "--verbose", "--include-partial-messages",
		"--permission-mode", "bypassPermissions", "--add-dir", e.Work,
		"--mcp-config", string(mcpCfg), "--strict-mcp-config")
	if !strings.Contains(out, `"type":"result"`) {
		t.Fatalf("no result event:\n%s", out)
	}
	// The model was offered memory_search through the bridge, and never secret_tool.
	offered, leaked := false, false
	for _, req := range srv.MainRequests() {
		offered = offered || req.HasTool(memName) || strings.Contains(string(req.Body), memName)
		leaked = leaked || req.HasTool(secretName)
	}
	if !offered || leaked {
		t.Fatalf("offered memory_search=%v, secret_tool=%v", offered, leaked)
	}
	checkLive(t, r, srv, out)
}

func TestLiveCodex(t *testing.T) {
	srv := fakemodel.Start(t,
		fakemodel.CodexMCP("osfoundry", "memory_search", memArgs),
		fakemodel.CodexMCP("osfoundry", "secret_tool", map[string]any{}),
		fakemodel.Text("Found the release checklist."),
	)
	front := startCodexToolSearch(t, srv, "osfoundry memory_search")
	e := agentenv.Codex(t, front.URL)
	r := newRig(t)
	b := r.start(t, "memory_search")
	out := runAgent(t, e, "exec", "Find the release checklist in my notes.", "--json", "--skip-git-repo-check",
		"-C", e.Work, "--dangerously-bypass-approvals-and-sandbox",
		"-c", `mcp_servers.osfoundry.url="`+b.URL()+`"`,
		"-c", `mcp_servers.osfoundry.http_headers={Authorization="Bearer `+b.Token()+`"}`,
		"-c", `approval_policy="never"`)
	// Codex reports the MCP call as an mcp_tool_call item: it completed the
	// handshake (a 200 {} to its notification would have dropped it).
	if !strings.Contains(out, `"mcp_tool_call"`) {
		for _, req := range srv.Requests() {
			t.Logf("%s %s side=%v turn=%d tools=%v results=%+v", req.Method, req.Path, req.Side, req.Turn, req.ToolNames(), req.ToolResults())
		}
		t.Fatalf("no mcp_tool_call item:\n%s", out)
	}
	offered := false
	for _, req := range srv.MainRequests() {
		offered = offered || strings.Contains(string(req.Body), "memory_search")
		if strings.Contains(string(req.Body), `"name":"`+secretName+`"`) && req.HasTool(secretName) {
			t.Fatal("Codex was offered secret_tool")
		}
	}
	if !offered {
		t.Fatal("Codex never offered memory_search to the model")
	}
	checkLive(t, r, srv, out)
}
