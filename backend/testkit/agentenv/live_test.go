package agentenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// Live tests: the real pinned CLIs end to end against the fake model server.

const liveTimeout = 90 * time.Second

// events runs a command and parses its stdout as JSON lines.
func events(t *testing.T, e *Env, args ...string) []map[string]any {
	t.Helper()
	out, stderr, err := e.Output(liveTimeout, args...)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() && len(stderr) > 0 {
		t.Logf("%s stderr:\n%s", e.Agent, stderr)
	}
	var evs []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			evs = append(evs, m)
		}
	}
	if len(evs) == 0 {
		t.Fatalf("%s printed no JSON events:\n%s\nstderr:\n%s", e.Agent, out, stderr)
	}
	return evs
}

func find(evs []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, ev := range evs {
		if ev["type"] == typ {
			out = append(out, ev)
		}
	}
	return out
}

// the marker is computed by the shell, so seeing 42 proves the command ran.
const markerCmd = "echo osf-marker-$((6*7))"
const markerOut = "osf-marker-42"

func claudeArgs(prompt string, extra ...string) []string {
	return append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--include-partial-messages"}, extra...)
}

func TestLiveClaudeHeadlessText(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("Hello from the fake model."))
	e := Claude(t, srv.URL)
	evs := events(t, e, claudeArgs("say hello")...)
	res := find(evs, "result")
	if len(res) != 1 || res[0]["result"] != "Hello from the fake model." || res[0]["is_error"] != false {
		t.Fatalf("result events = %v", res)
	}
	if len(find(evs, "stream_event")) == 0 {
		t.Error("no stream_event with --include-partial-messages")
	}
	main := srv.MainRequests()
	if len(main) != 1 || !strings.Contains(string(main[0].Body), "say hello") {
		t.Fatalf("main requests = %d, want 1 carrying the prompt", len(main))
	}
	if !main[0].HasTool("Bash") || !main[0].HasTool("Write") {
		t.Errorf("Claude Code no longer offers Bash and Write: %v", main[0].ToolNames())
	}
}

func TestLiveClaudeHeadlessTools(t *testing.T) {
	srv := fakemodel.Start(t)
	e := Claude(t, srv.URL, ClaudeBypassAsRoot)
	target := filepath.Join(e.Work, "hello.txt")
	srv.Push(
		fakemodel.ClaudeBash(markerCmd, "Print a marker"),
		fakemodel.ClaudeWrite(target, "hello from claude\n"),
		fakemodel.Text("All done."),
	)
	evs := events(t, e, claudeArgs("run the marker and write the file", "--permission-mode", "bypassPermissions")...)
	if b, err := os.ReadFile(target); err != nil || string(b) != "hello from claude\n" {
		t.Fatalf("file written by Write tool: %q, %v", b, err)
	}
	main := srv.MainRequests()
	if len(main) != 3 {
		t.Fatalf("main requests = %d, want 3 (prompt, after Bash, after Write)", len(main))
	}
	bash := main[1].ToolResults()
	if len(bash) != 1 || !strings.Contains(bash[0].Text, markerOut) || bash[0].IsError {
		t.Fatalf("Bash tool_result sent back = %+v, want %q", bash, markerOut)
	}
	if res := find(evs, "result"); len(res) != 1 || res[0]["result"] != "All done." {
		t.Fatalf("result = %v", res)
	}
}

func codexArgs(prompt string, extra ...string) []string {
	return append([]string{"exec", prompt, "--json", "--skip-git-repo-check"}, extra...)
}

func TestLiveCodexExecText(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("Hello from the fake model."))
	e := Codex(t, srv.URL)
	evs := events(t, e, codexArgs("say hello")...)
	var msgs []string
	for _, ev := range find(evs, "item.completed") {
		if it, _ := ev["item"].(map[string]any); it["type"] == "agent_message" {
			msgs = append(msgs, it["text"].(string))
		}
	}
	if len(msgs) != 1 || msgs[0] != "Hello from the fake model." {
		t.Fatalf("agent messages = %q", msgs)
	}
	done := find(evs, "turn.completed")
	if len(done) != 1 {
		t.Fatalf("turn.completed events = %v", done)
	}
	usage, _ := done[0]["usage"].(map[string]any)
	if usage["cached_input_tokens"] != float64(fakemodel.CachedTokens) {
		t.Errorf("usage = %v, want cached_input_tokens %d", usage, fakemodel.CachedTokens)
	}
	main := srv.MainRequests()
	if len(main) != 1 || !main[0].HasTool("exec_command") || !main[0].HasTool("apply_patch") {
		t.Fatalf("requests = %d; Codex tools = %v", len(main), main[0].ToolNames())
	}
}

func TestLiveCodexExecTools(t *testing.T) {
	srv := fakemodel.Start(t,
		fakemodel.CodexExec(markerCmd),
		fakemodel.CodexAddFile("hello.txt", "hello from codex"),
		fakemodel.Text("All done."),
	)
	e := Codex(t, srv.URL)
	evs := events(t, e, codexArgs("run the marker and write the file",
		"-s", "workspace-write", "-c", `approval_policy="never"`)...)
	if b, err := os.ReadFile(filepath.Join(e.Work, "hello.txt")); err != nil || string(b) != "hello from codex\n" {
		t.Fatalf("file written by apply_patch: %q, %v", b, err)
	}
	main := srv.MainRequests()
	if len(main) != 3 {
		t.Fatalf("main requests = %d, want 3", len(main))
	}
	res := main[1].ToolResults()
	if len(res) != 1 || !strings.Contains(res[0].Text, markerOut) {
		t.Fatalf("exec_command output sent back = %+v, want %q", res, markerOut)
	}
	kinds := map[string]bool{}
	for _, ev := range find(evs, "item.completed") {
		if it, _ := ev["item"].(map[string]any); it != nil {
			kinds[it["type"].(string)] = true
		}
	}
	for _, k := range []string{"command_execution", "file_change", "agent_message"} {
		if !kinds[k] {
			t.Errorf("no %s item in codex exec --json output (got %v)", k, kinds)
		}
	}
}
