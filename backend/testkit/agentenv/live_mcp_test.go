package agentenv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/fakemcp"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// Live tests of an MCP tool of a named server ("osfoundry"), called by the
// real CLIs the way the app's per-run bridge is attached.

const mcpToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestLiveClaudeHeadlessMCP(t *testing.T) {
	mcpSrv := fakemcp.Start(t, mcpToken)
	srv := fakemodel.Start(t,
		fakemodel.ClaudeMCP("osfoundry", "memory_search", map[string]any{"query": "release notes"}),
		fakemodel.Text("Found it."),
	)
	e := Claude(t, srv.URL, ClaudeBypassAsRoot)
	cfg := fmt.Sprintf(`{"mcpServers":{"osfoundry":{"type":"http","url":%q,"headers":{"Authorization":"Bearer %s"},"timeout":120000}}}`,
		mcpSrv.URL, mcpToken)
	evs := events(t, e, claudeArgs("search my memory", "--permission-mode", "bypassPermissions",
		"--mcp-config", cfg, "--strict-mcp-config")...)
	if calls := mcpSrv.Calls(); len(calls) != 1 || calls[0].Query != "release notes" {
		t.Fatalf("memory_search calls = %+v", calls)
	}
	main := srv.MainRequests()
	if len(main) != 2 {
		t.Fatalf("main requests = %d, want 2", len(main))
	}
	res := main[1].ToolResults()
	if len(res) != 1 || !strings.Contains(res[0].Text, fakemcp.ResultPrefix+"release notes") || res[0].IsError {
		t.Fatalf("tool_result sent back = %+v", res)
	}
	if r := find(evs, "result"); len(r) != 1 || r[0]["result"] != "Found it." {
		t.Fatalf("result = %v", r)
	}
}

func TestLiveCodexExecMCP(t *testing.T) {
	mcpSrv := fakemcp.Start(t, mcpToken)
	srv := fakemodel.Start(t,
		fakemodel.CodexToolSearch("memory search"),
		fakemodel.CodexMCP("osfoundry", "memory_search", map[string]any{"query": "release notes"}),
		fakemodel.Text("Found it."),
	)
	e := Codex(t, srv.URL)
	evs := events(t, e, codexArgs("search my memory", "--dangerously-bypass-approvals-and-sandbox",
		"-c", fmt.Sprintf("mcp_servers.osfoundry.url=%q", mcpSrv.URL),
		"-c", fmt.Sprintf(`mcp_servers.osfoundry.http_headers={Authorization="Bearer %s"}`, mcpToken))...)
	if calls := mcpSrv.Calls(); len(calls) != 1 || calls[0].Query != "release notes" {
		for _, r := range srv.MainRequests() {
			t.Logf("request %d: tool results %+v", r.Turn, r.ToolResults())
		}
		t.Fatalf("memory_search calls = %+v", calls)
	}
	main := srv.MainRequests()
	res := main[len(main)-1].ToolResults()
	if len(res) != 1 || !strings.Contains(res[0].Text, fakemcp.ResultPrefix+"release notes") {
		t.Fatalf("function_call_output sent back = %+v", res)
	}
	var call map[string]any
	for _, ev := range find(evs, "item.completed") {
		if it, _ := ev["item"].(map[string]any); it["type"] == "mcp_tool_call" {
			call = it
		}
	}
	if call == nil || call["server"] != "osfoundry" || call["tool"] != "memory_search" {
		t.Fatalf("mcp_tool_call item = %v", call)
	}
}
