package agentcli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the decoder golden files")

// decodeAll feeds a recorded stream through the agent's decoder the way a
// run does (line by line through the lineWriter).
func decodeAll(agent Agent, stream []byte) (Result, []Event, bool) {
	var res Result
	var evs []Event
	s := &sink{res: &res, emit: func(e Event) { evs = append(evs, e) }}
	var d decoder = newClaudeDecoder(s)
	if agent == Codex {
		d = newCodexDecoder(s)
	}
	w := &lineWriter{on: d.line}
	w.Write(stream)
	w.flush()
	return res, evs, d.final()
}

// TestDecodeRecorded decodes the real streams recorded from the pinned
// CLIs (go test -run Live -record) and compares with golden files.
func TestDecodeRecorded(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no recorded streams in testdata: run go test -run Live -record")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			stream, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			agent := Claude
			if strings.HasPrefix(filepath.Base(f), "codex-") {
				agent = Codex
			}
			res, evs, final := decodeAll(agent, stream)
			if !final {
				t.Error("no final record decoded")
			}
			for _, e := range evs {
				if e.Kind == KindRaw {
					t.Errorf("a line of a real stream was not understood: %s", e.Text)
				}
			}
			res.Duration = 0
			got, _ := json.MarshalIndent(map[string]any{"events": evs, "result": res}, "", "  ")
			golden := strings.TrimSuffix(f, ".jsonl") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(bytes.TrimSpace(want), bytes.TrimSpace(got)) {
				t.Errorf("decoded %s differs from %s (run with -update after checking):\n%s", f, golden, got)
			}
		})
	}
}

// Hostile and unknown input never crashes a decoder and is kept as raw lines.
func TestDecodeOddLines(t *testing.T) {
	lines := []string{
		"plain text warning from the CLI",
		`{"type":"brand_new_event","x":1}`,
		`{"no_type":true}`,
		`{"type":"assistant","message":{"content":"not a list"}}`,
		`{"type":"item.completed","item":{"type":"future_item","x":1}}`,
		`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"hi"}}}`,
		`{"type":`,
		"\x00\x01\xff binary",
		`[1,2,3]`,
		`"just a string"`,
		`null`,
	}
	for _, agent := range []Agent{Claude, Codex} {
		_, evs, final := decodeAll(agent, []byte(strings.Join(lines, "\n")))
		if final {
			t.Errorf("%s: odd lines counted as a final record", agent)
		}
		raw := 0
		for _, e := range evs {
			if e.Kind == KindRaw {
				raw++
			}
		}
		if raw < 6 {
			t.Errorf("%s: %d raw lines kept, want the unknown ones (events %q)", agent, raw, evs)
		}
	}
}

func TestCodexItems(t *testing.T) {
	stream := strings.Join([]string{
		`{"type":"thread.started","thread_id":"t-1"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.completed","item":{"id":"i0","type":"reasoning","text":"**Planning**\n\nlook first"}}`,
		`{"type":"item.started","item":{"id":"i1","type":"command_execution","command":"ls -la","status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"i1","type":"command_execution","command":"ls -la","exit_code":2,"status":"failed"}}`,
		`{"type":"item.completed","item":{"id":"i2","type":"file_change","changes":[{"path":"a.go","kind":"update"},{"path":"b.go","kind":"add"}]}}`,
		`{"type":"item.completed","item":{"id":"i3","type":"mcp_tool_call","server":"osfoundry","tool":"memory_search","status":"failed","error":{"message":"user cancelled MCP tool call"}}}`,
		`{"type":"error","message":"Reconnecting... 1/5"}`,
		`{"type":"item.completed","item":{"id":"i4","type":"agent_message","text":"first"}}`,
		`{"type":"item.completed","item":{"id":"i5","type":"agent_message","text":"final answer"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":900,"output_tokens":7}}`,
	}, "\n")
	res, evs, final := decodeAll(Codex, []byte(stream))
	want := []string{
		"Thinking: **Planning** look first",
		"Using shell — ls -la",
		"Shell command exited with 2",
		"Edited a.go",
		"Edited b.go",
		"Using memory_search…",
		"memory_search failed: user cancelled MCP tool call",
		"Codex: Reconnecting... 1/5",
	}
	if strings.Join(res.Progress, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress:\n%s\nwant:\n%s", strings.Join(res.Progress, "\n"), strings.Join(want, "\n"))
	}
	if !final || res.Text != "final answer" || res.SessionID != "t-1" {
		t.Errorf("final %v text %q session %q", final, res.Text, res.SessionID)
	}
	if res.Usage.ContextTokens != 1000 || res.Usage.OutputTokens != 7 {
		t.Errorf("usage %+v, want context 100+900", res.Usage)
	}
	if len(evs) == 0 || evs[0].Kind != KindSession {
		t.Errorf("first event %v, want the session id", evs)
	}
}

func TestClaudeResultError(t *testing.T) {
	stream := `{"type":"system","subtype":"init","session_id":"s-1","mcp_servers":[{"name":"osfoundry","status":"failed"}]}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"tu1","name":"mcp__osfoundry__memory_search","input":{"query":"x"}}]},"parent_tool_use_id":null}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"tu1","is_error":true,"content":[{"type":"text","text":"tool 'memory_search' is not available"}]}]}}
{"type":"result","subtype":"success","is_error":true,"result":"Not logged in · Please run /login","permission_denials":[{"tool_name":"mcp__osfoundry__canvas_write","tool_input":{"a":1}}]}`
	res, _, final := decodeAll(Claude, []byte(stream))
	want := []string{
		"osFoundry tools are unavailable in this run (bridge failed)",
		`Using memory_search — {"query":"x"}`,
		"memory_search failed: tool 'memory_search' is not available",
		"Claude Code refused 1 tool call(s)",
	}
	if strings.Join(res.Progress, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress:\n%s", strings.Join(res.Progress, "\n"))
	}
	if !final || !res.IsError || res.Errors[0] != "Not logged in · Please run /login" || res.PermissionDenials[0].Tool != "canvas_write" {
		t.Errorf("result %+v", res)
	}
}

func TestRawFloodCapped(t *testing.T) {
	var b strings.Builder
	for range 5000 {
		b.WriteString("garbage line\n")
	}
	_, evs, _ := decodeAll(Codex, []byte(b.String()))
	if len(evs) != maxRawLines+1 || evs[maxRawLines].Kind != KindProgress {
		t.Fatalf("%d events for 5000 garbage lines, want %d raw + one notice", len(evs), maxRawLines)
	}
}

func TestLongLineCut(t *testing.T) {
	var got [][]byte
	w := &lineWriter{on: func(l []byte) { got = append(got, append([]byte(nil), l...)) }}
	big := bytes.Repeat([]byte("x"), maxLine+10)
	w.Write(big)
	w.Write([]byte("\n{\"type\":\"turn.started\"}\n"))
	w.flush()
	if len(got) != 2 || len(got[0]) > 400 || !bytes.HasPrefix(got[0], []byte("(a 8 MB line was cut")) || string(got[1]) != `{"type":"turn.started"}` {
		t.Fatalf("lines = %d, first %.80q", len(got), got)
	}
}
