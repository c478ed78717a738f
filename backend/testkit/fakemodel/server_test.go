package fakemodel

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

type event struct {
	name string
	data map[string]any
}

func post(t *testing.T, url, body string) []event {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("POST %s: %s", url, resp.Status)
	}
	var evs []event
	sc := bufio.NewScanner(resp.Body)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var m map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err != nil {
				t.Fatalf("bad data line %q: %v", line, err)
			}
			if m["type"] != name {
				t.Errorf("event %q carries type %v", name, m["type"])
			}
			evs = append(evs, event{name, m})
		}
	}
	return evs
}

func names(evs []event) string {
	var s []string
	for _, e := range evs {
		s = append(s, e.name)
	}
	return strings.Join(s, ",")
}

const mainBody = `{"model":"m","stream":true,"system":"x","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"hi"}]}`

func TestAnthropicStream(t *testing.T) {
	s := Start(t, Text("one two"), ClaudeBash("echo é", "d"))
	// A side request (no tools) must not consume the script.
	side := post(t, s.URL+"/v1/messages?beta=true", `{"model":"m","stream":true,"tools":[],"output_config":{"format":{"type":"json_schema"}},"messages":[]}`)
	if got := names(side); !strings.HasPrefix(got, "message_start,ping,content_block_start") {
		t.Fatalf("side events = %s", got)
	}
	tests := []struct {
		want     string
		stop     string
		contains string
	}{
		{"message_start,ping,content_block_start,content_block_delta,content_block_delta,content_block_stop,message_delta,message_stop", "end_turn", "one"},
		{"message_start,ping,content_block_start,content_block_delta,content_block_delta,content_block_stop,message_delta,message_stop", "tool_use", `"command":"echo é"`},
		{"message_start,ping,content_block_start,content_block_delta,content_block_stop,message_delta,message_stop", "end_turn", "Done."},
	}
	for i, tc := range tests {
		evs := post(t, s.URL+"/v1/messages?beta=true", mainBody)
		if got := names(evs); got != tc.want {
			t.Errorf("turn %d events = %s", i, got)
		}
		delta := evs[len(evs)-2].data["delta"].(map[string]any)
		if delta["stop_reason"] != tc.stop {
			t.Errorf("turn %d stop_reason = %v", i, delta["stop_reason"])
		}
		var text strings.Builder
		for _, e := range evs {
			if d, ok := e.data["delta"].(map[string]any); ok {
				for _, k := range []string{"text", "partial_json"} {
					if v, ok := d[k].(string); ok {
						text.WriteString(v)
					}
				}
			}
		}
		if !strings.Contains(text.String(), tc.contains) {
			t.Errorf("turn %d streamed %q, want %q", i, text.String(), tc.contains)
		}
	}
	if s.Used() != 2 || len(s.MainRequests()) != 3 || len(s.Requests()) != 4 {
		t.Fatalf("used %d, main %d, all %d", s.Used(), len(s.MainRequests()), len(s.Requests()))
	}
}

func TestOpenAIStream(t *testing.T) {
	s := Start(t, Text("hi there"), CodexExec("ls"), CodexAddFile("a.txt", "x"))
	want := []string{
		"response.created,response.in_progress,response.output_item.added,response.content_part.added,response.output_text.delta,response.output_text.delta,response.output_text.done,response.content_part.done,response.output_item.done,response.completed",
		"response.created,response.in_progress,response.output_item.added,response.function_call_arguments.delta,response.function_call_arguments.done,response.output_item.done,response.completed",
		"response.created,response.in_progress,response.output_item.added,response.custom_tool_call_input.delta,response.custom_tool_call_input.done,response.output_item.done,response.completed",
	}
	for i, w := range want {
		evs := post(t, s.URL+"/v1/responses", `{"model":"gpt-5.5","input":[]}`)
		if got := names(evs); got != w {
			t.Errorf("turn %d events = %s", i, got)
		}
		last := evs[len(evs)-1].data["response"].(map[string]any)
		usage := last["usage"].(map[string]any)
		if usage["input_tokens_details"].(map[string]any)["cached_tokens"] != float64(CachedTokens) {
			t.Errorf("turn %d usage = %v", i, usage)
		}
		if len(last["output"].([]any)) != 1 {
			t.Errorf("turn %d output = %v", i, last["output"])
		}
	}
}

func TestToolResults(t *testing.T) {
	tests := []struct {
		api, body string
		want      []ToolResult
	}{
		{"anthropic", `{"messages":[{"role":"user","content":"go"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"out"}]},{"type":"tool_result","tool_use_id":"t2","content":"bad","is_error":true}]}]}`,
			[]ToolResult{{"t1", "out", false}, {"t2", "bad", true}}},
		{"openai", `{"input":[{"type":"message"},{"type":"function_call_output","call_id":"c1","output":"42"},{"type":"custom_tool_call_output","call_id":"c2","output":"Success"}]}`,
			[]ToolResult{{"c1", "42", false}, {"c2", "Success", false}}},
		{"openai", `not json`, nil},
	}
	for _, tc := range tests {
		got := Request{API: tc.api, Body: []byte(tc.body)}.ToolResults()
		if len(got) != len(tc.want) {
			t.Fatalf("%s: got %+v", tc.api, got)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s[%d] = %+v, want %+v", tc.api, i, got[i], tc.want[i])
			}
		}
	}
}

func TestSlowTurnEndsWhenClientLeaves(t *testing.T) {
	s := Start(t, Slow(time.Hour, "never"))
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/v1/responses", strings.NewReader(`{"model":"x"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	// Headers and the first events arrive before the delay: the CLI is "working".
	line, _ := bufio.NewReader(resp.Body).ReadString('\n')
	if line != "event: response.created\n" {
		t.Fatalf("first line = %q", line)
	}
	cancel()
	resp.Body.Close()
	if !s.WaitMain(1, time.Second) {
		t.Fatal("request not recorded")
	}
}

func TestUnknownEndpoint(t *testing.T) {
	s := Start(t)
	resp, err := http.Get(s.URL + "/v2/nothing")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 || len(s.Requests()) != 1 {
		t.Fatalf("status %d, recorded %d", resp.StatusCode, len(s.Requests()))
	}
}

func TestAnthropicSide(t *testing.T) {
	tests := []struct {
		name, body string
		side       bool
	}{
		{"turn with tools", `{"tools":[{"name":"Bash"}],"max_tokens":32000,"messages":[]}`, false},
		{"chat mode turn without tools", `{"tools":[],"max_tokens":32000,"output_config":{"effort":"medium"}}`, false},
		{"title with structured output", `{"tools":[],"output_config":{"effort":"medium","format":{"type":"json_schema"}}}`, true},
		{"quota probe", `{"max_tokens":1,"messages":[{"role":"user","content":"quota"}]}`, true},
		{"not json", `{`, true},
	}
	for _, tc := range tests {
		if got := anthropicSide([]byte(tc.body)); got != tc.side {
			t.Errorf("%s: side = %v, want %v", tc.name, got, tc.side)
		}
	}
}

func TestOpenAISide(t *testing.T) {
	tests := []struct {
		name, body string
		side       bool
	}{
		{"turn", `{"tools":[{"name":"exec_command"}],"text":{"verbosity":"low"},"client_metadata":{"x-codex-turn-metadata":"{\"thread_source\":\"user\"}"}}`, false},
		{"title by metadata", `{"client_metadata":{"x-codex-turn-metadata":"{\"thread_source\":\"thread_title\"}"}}`, true},
		{"title by schema", `{"text":{"format":{"type":"json_schema","schema":{"properties":{"title":{"type":"string"}}}}}}`, true},
		{"exec --output-schema with more fields", `{"text":{"format":{"type":"json_schema","schema":{"properties":{"title":{},"body":{}}}}}}`, false},
		{"not json", `[`, true},
	}
	for _, tc := range tests {
		if got := openaiSide([]byte(tc.body)); got != tc.side {
			t.Errorf("%s: side = %v, want %v", tc.name, got, tc.side)
		}
	}
}

func TestOpenAIToolSearchAndNamespace(t *testing.T) {
	s := Start(t, CodexToolSearch("memory"), CodexMCP("osfoundry", "memory_search", map[string]any{"query": "q"}))
	var items []map[string]any
	for range 2 {
		evs := post(t, s.URL+"/v1/responses", `{"model":"gpt-5.5","input":[]}`)
		items = append(items, evs[len(evs)-2].data["item"].(map[string]any))
	}
	if items[0]["type"] != "tool_search_call" || items[0]["execution"] != "client" ||
		items[0]["arguments"].(map[string]any)["query"] != "memory" {
		t.Errorf("search item = %v", items[0])
	}
	if items[1]["type"] != "function_call" || items[1]["name"] != "memory_search" || items[1]["namespace"] != "mcp__osfoundry" {
		t.Errorf("call item = %v", items[1])
	}
}

func TestChatSide(t *testing.T) {
	tests := []struct {
		name, body string
		side       bool
	}{
		{"turn", `{"stream":true,"messages":[{"role":"system","content":"You are Qwen Code"},{"role":"user","content":"hi"}]}`, false},
		{"not streamed", `{"stream":false,"messages":[{"role":"user","content":"hi"}]}`, true},
		{"memory subagent", `{"stream":true,"messages":[{"role":"system","content":"You are now acting as the managed memory extraction subagent"}]}`, true},
		{"opencode title", `{"stream":true,"messages":[{"role":"system","content":"You are a title generator. You output ONLY a thread title."},{"role":"user","content":"hi"}]}`, true},
		{"suggestion", `{"stream":true,"messages":[{"role":"system","content":"You are Qwen Code"},{"role":"user","content":[{"type":"text","text":"[SUGGESTION MODE: Suggest"}]}]}`, true},
	}
	for _, tc := range tests {
		if got := chatSide([]byte(tc.body)); got != tc.side {
			t.Errorf("%s: side = %v, want %v", tc.name, got, tc.side)
		}
	}
}

func TestChatStream(t *testing.T) {
	s := Start(t, Tool("run_shell_command", map[string]any{"command": "ls"}))
	resp, err := http.Post(s.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var args strings.Builder
	var finish any
	done := false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if line == "[DONE]" {
			done = true
			break
		}
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				}
				FinishReason any `json:"finish_reason"`
			}
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		for _, tc := range c.Choices[0].Delta.ToolCalls {
			args.WriteString(tc.Function.Arguments)
		}
		if c.Choices[0].FinishReason != nil {
			finish = c.Choices[0].FinishReason
		}
	}
	if !done || finish != "tool_calls" || args.String() != `{"command":"ls"}` {
		t.Fatalf("done=%v finish=%v args=%q", done, finish, args.String())
	}
}

// A body that is not JSON gets each API's own 400 error shape.
func TestBadBody(t *testing.T) {
	srv, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, tc := range []struct{ path, want string }{
		{"/v1/messages", `"type":"error"`},
		{"/v1/responses", `"type":"invalid_request_error"`},
		{"/v1/chat/completions", `"type":"invalid_request_error"`},
	} {
		resp, err := http.Post(srv.URL+tc.path, "application/json", strings.NewReader("{not json"))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		bufio.NewReader(resp.Body).WriteTo(&b) //nolint:errcheck // checked by content below
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(b.String(), tc.want) ||
			!strings.Contains(b.String(), "body is not JSON") {
			t.Errorf("%s: %s %s, want 400 with %s", tc.path, resp.Status, b.String(), tc.want)
		}
	}
}
