package inventory

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// Copilot CLI stores shaped the way older and newer versions wrote them.

// newEnvService is newTestService with environment variables.
func newEnvService(t *testing.T, home string, vars map[string]string) *Service {
	t.Helper()
	svc, err := New(context.Background(), nil, Options{Env: Env{Home: home, GOOS: "linux", Getenv: func(k string) string { return vars[k] }},
		Runner: &fakeRunner{branch: "main"}, Poll: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func copilotEvents(id, cwd, prompt string) string {
	return jsonl(
		m{"type": "session.start", "data": m{"sessionId": id, "version": 1, "producer": "copilot-agent", "copilotVersion": "0.0.340", "startTime": "2025-10-20T10:00:00.000Z", "context": m{"cwd": cwd}}, "id": "e1", "timestamp": "2025-10-20T10:00:00.000Z", "parentId": nil},
		m{"type": "user.message", "data": m{"content": prompt, "transformedContent": "<current_datetime>x</current_datetime>\n" + prompt, "attachments": []any{}}, "id": "e2", "timestamp": "2025-10-20T10:00:01.000Z", "parentId": "e1"},
		m{"type": "assistant.message", "data": m{"messageId": "a1", "content": "Looking.", "toolRequests": []m{{"toolCallId": "t1", "name": "view", "arguments": m{"path": "a.go"}}}}, "id": "e3", "timestamp": "2025-10-20T10:00:02.000Z", "parentId": "e2"},
	)
}

// TestCopilotStoreVariants: COPILOT_HOME moves the whole store; versions up
// to 0.0.42x kept state under $XDG_STATE_HOME/.copilot; the oldest versions
// wrote one JSON document per session into history-session-state/.
func TestCopilotStoreVariants(t *testing.T) {
	home := t.TempDir()
	folder := t.TempDir()
	custom := filepath.Join(t.TempDir(), "copilot-home")
	write(t, filepath.Join(custom, "session-state", "c0a1", "events.jsonl"), copilotEvents("c0a1", folder, "Relocated store"))
	xdgState := filepath.Join(t.TempDir(), "state")
	write(t, filepath.Join(xdgState, ".copilot", "session-state", "c0b2.jsonl"), copilotEvents("c0b2", folder, "XDG state store"))
	write(t, filepath.Join(home, ".copilot", "history-session-state", "session_c0c3_1760000000000.json"), `{
  "sessionId": "c0c3",
  "startTime": "2025-09-30T08:00:00.000Z",
  "chatMessages": [
    {"role": "system", "content": "You are the GitHub Copilot CLI, a terminal assistant built by GitHub."},
    {"role": "user", "content": "Add a health check endpoint"},
    {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "str_replace_editor", "arguments": "{\"command\":\"view\",\"path\":\"/w/api/server.go\"}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "package main"},
    {"role": "assistant", "content": "Added /healthz."}
  ],
  "timeline": [{"id": "t1", "timestamp": "2025-09-30T08:00:05.000Z", "type": "tool_call_completed", "toolTitle": "str_replace_editor", "arguments": {"command": "view", "path": "/w/api/server.go"}, "result": {"type": "success", "log": "package main"}}]
}`)
	svc := newEnvService(t, home, map[string]string{"COPILOT_HOME": custom, "XDG_STATE_HOME": xdgState})
	refresh(t, svc)
	for _, c := range []struct{ id, title, folder string }{
		{"c0a1", "Relocated store", folder},
		{"c0b2", "XDG state store", folder},
		{"c0c3", "Add a health check endpoint", ""},
	} {
		s := find(t, svc, "copilot-cli:"+c.id)
		if s.Title != c.title || s.Folder != c.folder {
			t.Errorf("%s: title %q folder %q, want %q %q", c.id, s.Title, s.Folder, c.title, c.folder)
		}
	}
	p, err := svc.Transcript(context.Background(), "copilot-cli:c0c3", 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, p.Rows, []Row{{Kind: RowUser, Text: "Add a health check endpoint"}, {Kind: RowToolCall, Name: "str_replace_editor"},
		{Kind: RowToolResult, Text: "package main"}, {Kind: RowAssistant, Text: "Added /healthz."}})
	p, err = svc.Transcript(context.Background(), "copilot-cli:c0a1", 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, p.Rows, []Row{{Kind: RowUser, Text: "Relocated store"}, {Kind: RowAssistant, Text: "Looking."}})
	pl, err := svc.PlanResume(context.Background(), "copilot-cli:c0a1", PlanOptions{})
	if err != nil || len(pl.Argv) != 3 || pl.Argv[2] != "c0a1" {
		t.Fatalf("plan %v %v", pl.Argv, err)
	}
}
