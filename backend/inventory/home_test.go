package inventory

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Crafted stores shaped like each app's real files (field names, nesting,
// folder layout). Values are examples, not anyone's sessions.

func write(t *testing.T, p, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func jsonl(recs ...any) string {
	var b strings.Builder
	for _, r := range recs {
		if s, ok := r.(string); ok {
			b.WriteString(s)
		} else {
			j, _ := json.Marshal(r)
			b.Write(j)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

type m = map[string]any

func touch(t *testing.T, p string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

// claudeLines builds a realistic Claude Code transcript: title and mode
// records first, the first cwd on line 6, then conversation records.
func claudeLines(id, cwd, branch, firstMsg string, extra ...any) string {
	base := func(typ string) m {
		return m{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": cwd, "sessionId": id,
			"version": "2.1.328", "gitBranch": branch, "type": typ, "timestamp": "2026-11-04T10:00:00.000Z"}
	}
	user := base("user")
	user["message"] = m{"role": "user", "content": firstMsg}
	user["permissionMode"] = "default"
	asst := base("assistant")
	asst["message"] = m{"model": "claude-opus-4-5", "role": "assistant", "content": []m{
		{"type": "thinking", "thinking": "Let me look."},
		{"type": "text", "text": "Found it."},
		{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": m{"command": "go test ./..."}},
	}}
	asst["requestedModel"] = "opus"
	asst["effort"] = "high"
	result := base("user")
	result["message"] = m{"role": "user", "content": []m{{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok  42 tests", "is_error": false}}}
	recs := []any{
		m{"type": "custom-title", "customTitle": "Early title", "sessionId": id},
		m{"type": "mode", "mode": "normal", "sessionId": id},
		m{"type": "agent-name", "agentName": "main", "sessionId": id},
		m{"type": "queue-operation", "operation": "enqueue", "sessionId": id},
		m{"type": "file-history-snapshot", "messageId": "x", "snapshot": m{}},
		user, asst, result,
	}
	recs = append(recs, extra...)
	return jsonl(recs...)
}

// codexThreadsSchema is the shape of Codex's threads table (a subset of its
// 43 columns, with the ones the index reads).
const codexThreadsSchema = `CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT, created_at INTEGER,
	updated_at INTEGER, source TEXT, model_provider TEXT, cwd TEXT, title TEXT, sandbox_policy TEXT,
	approval_mode TEXT, tokens_used INTEGER, has_user_event INTEGER, archived INTEGER, archived_at INTEGER,
	git_sha TEXT, git_branch TEXT, git_origin_url TEXT, cli_version TEXT, first_user_message TEXT,
	agent_nickname TEXT, agent_role TEXT, memory_mode TEXT, model TEXT, reasoning_effort TEXT,
	updated_at_ms INTEGER, originator TEXT)`

func sqliteFile(t *testing.T, p string, stmts ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func rollout(id, cwd, originator, branch, userMsg string, ctx m) string {
	meta := m{"timestamp": "2026-11-04T10:00:00.000Z", "type": "session_meta", "payload": m{
		"id": id, "timestamp": "2026-11-04T10:00:00.000Z", "cwd": cwd, "originator": originator,
		"cli_version": "0.169.0", "source": "cli", "model_provider": "openai",
		"base_instructions": m{"text": strings.Repeat("You are Codex. ", 200)}, "git": m{"branch": branch, "commit_hash": "abc"}}}
	return jsonl(meta,
		m{"type": "response_item", "payload": m{"type": "message", "role": "user", "content": []m{{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}}}},
		m{"type": "event_msg", "payload": m{"type": "user_message", "message": userMsg}},
		m{"type": "turn_context", "payload": ctx},
		m{"type": "response_item", "payload": m{"type": "message", "role": "user", "content": []m{{"type": "input_text", "text": userMsg}}}},
		m{"type": "response_item", "payload": m{"type": "reasoning", "summary": []m{{"type": "summary_text", "text": "Thinking about it"}}}},
		m{"type": "response_item", "payload": m{"type": "function_call", "name": "shell", "arguments": `{"command":["rg","retry"]}`, "call_id": "c1"}},
		m{"type": "response_item", "payload": m{"type": "function_call_output", "call_id": "c1", "output": "src/pay.go:12: retry"}},
		m{"type": "response_item", "payload": m{"type": "message", "role": "assistant", "content": []m{{"type": "output_text", "text": "Done."}}}},
	)
}

func newTestService(t *testing.T, home string, db *sql.DB, r Runner) *Service {
	t.Helper()
	if r == nil {
		r = &fakeRunner{}
	}
	svc, err := New(context.Background(), db, Options{Env: Env{Home: home, GOOS: "linux"}, Runner: r, Poll: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func refresh(t *testing.T, svc *Service) {
	t.Helper()
	if _, err := svc.Refresh(context.Background()); err != nil {
		t.Fatalf("refresh: %v", err)
	}
}

func find(t *testing.T, svc *Service, key string) Session {
	t.Helper()
	s, err := svc.Find(key)
	if err != nil {
		var keys []string
		for _, x := range svc.List("", "") {
			keys = append(keys, x.Key)
		}
		t.Fatalf("find %s: %v (have %v)", key, err, keys)
	}
	return s
}
