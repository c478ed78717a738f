package inventory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// otherAppsHome writes one session per app in each app's real layout.
func otherAppsHome(t *testing.T) string {
	home := t.TempDir()
	// Gemini CLI: slug folder with .project_root (JSONL), and a legacy
	// hash-named folder resolved through projects.json (one JSON object).
	g := filepath.Join(home, ".gemini")
	write(t, filepath.Join(g, "tmp", "shop-api", ".project_root"), "/w/shop-api")
	write(t, filepath.Join(g, "tmp", "shop-api", "chats", "session-2026-11-04T10-00-g1aaaaaa.jsonl"), jsonl(
		m{"sessionId": "g1aaaaaa-1111-4111-8111-111111111111", "projectHash": "h", "startTime": "2026-11-04T10:00:00Z", "lastUpdated": "2026-11-04T10:00:00Z"},
		m{"id": "u1", "timestamp": "2026-11-04T10:00:00Z", "type": "user", "content": []m{{"text": "Explain the retry loop"}}},
		m{"id": "a1", "timestamp": "2026-11-04T10:00:01Z", "type": "gemini", "content": "It retries.", "model": "gemini-2.5-pro",
			"toolCalls": []m{{"id": "c1", "name": "read_file", "args": m{"path": "a.go"}, "status": "success", "result": []m{{"functionResponse": m{"id": "c1", "name": "read_file", "response": m{"output": "package a"}}}}}}},
		m{"$set": m{"summary": "Retry loop explained"}},
	))
	write(t, filepath.Join(g, "tmp", "shop-api", "chats", "g1aaaaaa-parent", "sub-1.jsonl"), jsonl(m{"sessionId": "sub-1", "projectHash": "h", "kind": "subagent"}))
	sum := sha256.Sum256([]byte("/w/legacy"))
	hash := hex.EncodeToString(sum[:])
	write(t, filepath.Join(g, "projects.json"), `{"projects":{"/w/legacy":"legacy"}}`)
	write(t, filepath.Join(g, "tmp", hash, "chats", "session-2025-12-17T10-00-g2bbbbbb.json"), `{"sessionId":"g2bbbbbb-2222-4222-8222-222222222222","projectHash":"`+hash+`","startTime":"2025-12-17T10:00:00Z","lastUpdated":"2025-12-17T10:05:00Z","messages":[{"id":"m1","timestamp":"2025-12-17T10:00:00Z","type":"user","content":"Legacy question"}]}`)
	write(t, filepath.Join(g, "oauth_creds.json"), `{}`)
	// Qwen Code.
	write(t, filepath.Join(home, ".qwen", "projects", "-w-qwen", "chats", "q1.jsonl"), jsonl(
		m{"uuid": "1", "parentUuid": nil, "sessionId": "q1", "timestamp": "2026-11-04T10:00:00Z", "type": "user", "cwd": "/w/qwen", "version": "0.9.0", "gitBranch": "feat/q",
			"message": m{"role": "user", "parts": []m{{"text": "Port the parser"}}}},
		m{"uuid": "2", "parentUuid": "1", "sessionId": "q1", "type": "assistant", "cwd": "/w/qwen", "model": "qwen3-coder-plus",
			"message": m{"role": "model", "parts": []m{{"text": "On it."}, {"functionCall": m{"name": "read_file", "args": m{"path": "p.go"}}}}}},
		m{"uuid": "3", "sessionId": "q1", "type": "system", "subtype": "custom_title", "cwd": "/w/qwen", "systemPayload": m{"customTitle": "Parser port"}},
	))
	// OpenCode: SQLite store and the older JSON store; a child session is a sub-agent.
	oc := filepath.Join(home, ".local", "share", "opencode")
	sqliteFile(t, filepath.Join(oc, "opencode.db"),
		`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_archived INTEGER)`,
		`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)`,
		`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)`,
		`INSERT INTO session VALUES ('ses_1', 'p', NULL, 's', '/w/oc', 'Fix flaky test', '1.2.0', 1, 1780000000000, NULL)`,
		`INSERT INTO session VALUES ('ses_child', 'p', 'ses_1', 's', '/w/oc', 'child', '1.2.0', 1, 1780000000001, NULL)`,
		`INSERT INTO message VALUES ('msg_1', 'ses_1', 1, 1, '{"role":"user","time":{"created":1}}')`,
		`INSERT INTO message VALUES ('msg_2', 'ses_1', 2, 2, '{"role":"assistant","modelID":"x"}')`,
		`INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_1', 1, 1, '{"type":"text","text":"why flaky?"}')`,
		`INSERT INTO part VALUES ('prt_2', 'msg_2', 'ses_1', 2, 2, '{"type":"tool","tool":"bash","callID":"c","state":{"status":"completed","input":{"command":"go test"},"output":"ok"}}')`,
	)
	write(t, filepath.Join(oc, "storage", "session", "global", "ses_old.json"), `{"id":"ses_old","version":"0.15.0","projectID":"global","directory":"/w/old-oc","title":"Old JSON session","time":{"created":1,"updated":1760000000000}}`)
	write(t, filepath.Join(oc, "storage", "message", "ses_old", "msg_a.json"), `{"id":"msg_a","sessionID":"ses_old","role":"user"}`)
	write(t, filepath.Join(oc, "storage", "part", "msg_a", "prt_a.json"), `{"id":"prt_a","type":"text","text":"old question"}`)
	write(t, filepath.Join(oc, "auth.json"), `{}`)
	// Copilot CLI.
	cp := filepath.Join(home, ".copilot", "session-state", "3f2a9c1e-0b7d-4e55-9a41-6c2d8e1f7a10")
	write(t, filepath.Join(cp, "workspace.yaml"), "id: 3f2a9c1e-0b7d-4e55-9a41-6c2d8e1f7a10\ncwd: /w/login\ngit_root: /w/login\nbranch: feature/login\nsummary: \"Fix the login redirect\"\n")
	write(t, filepath.Join(cp, "events.jsonl"), jsonl(
		m{"type": "session.start", "data": m{"sessionId": "3f2a9c1e-0b7d-4e55-9a41-6c2d8e1f7a10", "copilotVersion": "0.0.330", "context": m{"cwd": "/w/login"}}, "id": "e1", "timestamp": "2026-10-01T10:00:00Z"},
		m{"type": "user.message", "data": m{"content": "Why does login redirect to /home?"}, "id": "e2"},
		m{"type": "tool.execution_start", "data": m{"toolCallId": "t", "toolName": "view", "arguments": m{"path": "src/router.ts"}}},
		m{"type": "tool.execution_complete", "data": m{"toolCallId": "t", "success": true, "result": m{"content": "export const home"}}},
		m{"type": "session.model_change", "data": m{"newModel": "claude-sonnet-4.5"}},
	))
	write(t, filepath.Join(home, ".copilot", "config.json"), `{}`)
	// Cursor: global composerData + bubbles, workspace mapping.
	cu := filepath.Join(home, ".config", "Cursor", "User")
	sqliteFile(t, filepath.Join(cu, "globalStorage", "state.vscdb"),
		`CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
		`CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
		`INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', 'secret')`,
		`INSERT INTO cursorDiskKV VALUES ('composerData:cmp-1', '{"composerId":"cmp-1","name":"Refactor auth","createdAt":1760000000000,"lastUpdatedAt":1770000000000,"fullConversationHeadersOnly":[{"bubbleId":"b1","type":1},{"bubbleId":"b2","type":2}]}')`,
		`INSERT INTO cursorDiskKV VALUES ('composerData:cmp-empty', '{"composerId":"cmp-empty","fullConversationHeadersOnly":[]}')`,
		`INSERT INTO cursorDiskKV VALUES ('composerData:cmp-bad', 'not json')`,
		`INSERT INTO cursorDiskKV VALUES ('bubbleId:cmp-1:b1', '{"type":1,"text":"Split auth.ts"}')`,
		`INSERT INTO cursorDiskKV VALUES ('bubbleId:cmp-1:b2', '{"type":2,"text":"Done","toolFormerData":{"name":"edit_file","rawArgs":"{}","result":"ok"}}')`,
	)
	write(t, filepath.Join(cu, "workspaceStorage", "abc123", "workspace.json"), `{"folder":"file:///w/cursor-proj"}`)
	sqliteFile(t, filepath.Join(cu, "workspaceStorage", "abc123", "state.vscdb"),
		`CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
		`INSERT INTO ItemTable VALUES ('composer.composerData', '{"allComposers":[{"composerId":"cmp-1"}]}')`)
	// Devin CLI.
	sqliteFile(t, filepath.Join(home, ".local", "share", "devin", "cli", "sessions.db"),
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, working_directory TEXT, backend_type TEXT, model TEXT, agent_mode TEXT, created_at INTEGER, last_activity_at INTEGER, title TEXT, main_chain_id INTEGER, hidden INTEGER)`,
		`CREATE TABLE message_nodes (row_id INTEGER PRIMARY KEY, session_id TEXT, node_id INTEGER, parent_node_id INTEGER, chat_message TEXT, created_at INTEGER)`,
		`INSERT INTO sessions VALUES ('rain-salary', '/w/devin', 'x', 'swe-1.5', 'normal', 1770000000, 1770000100, 'Devin task', 1, 0)`,
		`INSERT INTO sessions VALUES ('hidden-one', '/w/devin', 'x', 'swe-1.5', 'normal', 1, 1, 'Hidden', 1, 1)`,
		`INSERT INTO message_nodes VALUES (1, 'rain-salary', 1, NULL, '{"role":"user","content":"do it"}', 1)`)
	write(t, filepath.Join(home, ".local", "share", "devin", "credentials.toml"), "windsurf_api_key = \"secret\"\n")
	// Antigravity.
	sqliteFile(t, filepath.Join(home, ".gemini", "antigravity-cli", "conversation_summaries.db"),
		`CREATE TABLE conversation_summaries (id TEXT PRIMARY KEY, title TEXT, preview TEXT, step_count INTEGER, last_modified_time TEXT, last_user_input_time TEXT, workspace_uris TEXT, app_data_dir TEXT, source TEXT, agent_name TEXT)`,
		`INSERT INTO conversation_summaries VALUES ('4be3c92e-a0b4-46b2-a2ce-f9afbae8464a', 'Caddy audit', 'audit the Caddyfile', 12, '2026-09-16 22:57:05.123+00:00', '0001-01-01 00:00:00+00:00', '["file:///w/agy"]', 'antigravity', 'ide', 'agent')`)
	// Kiro CLI: v1 SQLite and v3 session files.
	sqliteFile(t, filepath.Join(home, ".local", "share", "kiro-cli", "data.sqlite3"),
		`CREATE TABLE conversations_v2 (key TEXT NOT NULL, conversation_id TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (key, conversation_id))`,
		`CREATE TABLE auth_kv (key TEXT PRIMARY KEY, value TEXT)`,
		`INSERT INTO auth_kv VALUES ('token', 'secret')`,
		`INSERT INTO conversations_v2 VALUES ('/w/kiro', 'conv-1', '{"conversation_id":"conv-1","model_info":{"model_id":"claude-opus-4.6"},"history":[{"user":{"content":{"Prompt":{"prompt":"Write the deploy script"}}},"assistant":{"Response":{"content":"Sure"}}}]}', 1, 1780462801000)`)
	k3 := filepath.Join(home, ".kiro", "sessions", "w-kiro3", "sess_k3")
	write(t, filepath.Join(k3, "session.json"), `{"id":"k3","cwd":"/w/kiro3","title":"KAS session","modelId":"auto","lastModifiedAt":"2026-11-01T00:00:00Z"}`)
	write(t, filepath.Join(k3, "messages.jsonl"), jsonl(m{"timestamp": "t", "payload": m{"type": "user", "content": "hi"}}, m{"payload": m{"type": "tool_call", "toolName": "fs_read", "args": m{}}}))
	// Claude app record pointing at a Claude Code transcript.
	ccID := "7d0e9f1a-1111-4222-8333-444455556666"
	write(t, filepath.Join(home, ".claude", "projects", "-w-desk", ccID+".jsonl"), claudeLines(ccID, "/w/desk", "main", "Desktop question"))
	write(t, filepath.Join(home, ".config", "Claude", "claude-code-sessions", "acct", "org", "local_abc.json"),
		`{"sessionId":"local_abc","cliSessionId":"`+ccID+`","cwd":"/w/desk","title":"Desktop code session","createdAt":1,"lastActivityAt":1770000000000}`)
	return home
}

func TestOtherAppsAdapters(t *testing.T) {
	home := otherAppsHome(t)
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	cases := []struct {
		key, title, folder, extra string
	}{
		{"gemini-cli:g1aaaaaa-1111-4111-8111-111111111111", "Retry loop explained", "/w/shop-api", "gemini-2.5-pro"},
		{"gemini-cli:g2bbbbbb-2222-4222-8222-222222222222", "Legacy question", "/w/legacy", ""},
		{"qwen-code:q1", "Parser port", "/w/qwen", "feat/q"},
		{"opencode:ses_1", "Fix flaky test", "/w/oc", ""},
		{"opencode:ses_old", "Old JSON session", "/w/old-oc", ""},
		{"copilot-cli:3f2a9c1e-0b7d-4e55-9a41-6c2d8e1f7a10", "Fix the login redirect", "/w/login", "feature/login"},
		{"cursor:cmp-1", "Refactor auth", "/w/cursor-proj", ""},
		{"devin:rain-salary", "Devin task", "/w/devin", "swe-1.5"},
		{"antigravity:4be3c92e-a0b4-46b2-a2ce-f9afbae8464a", "Caddy audit", "/w/agy", ""},
		{"kiro:conv-1", "Write the deploy script", "/w/kiro", "claude-opus-4.6"},
		{"kiro:k3", "KAS session", "/w/kiro3", ""},
		{"claude-app:local_abc", "Desktop code session", "/w/desk", "main"},
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			s := find(t, svc, c.key)
			if s.Title != c.title || s.Folder != c.folder {
				t.Fatalf("got title %q folder %q, want %q %q (%+v)", s.Title, s.Folder, c.title, c.folder, s)
			}
			if c.extra != "" && s.Model != c.extra && s.Branch != c.extra {
				t.Fatalf("want model or branch %q: %+v", c.extra, s)
			}
			p, err := svc.Transcript(context.Background(), c.key, 0, 50)
			if err != nil {
				t.Fatalf("transcript: %v", err)
			}
			if len(p.Rows) == 0 {
				t.Fatal("empty transcript")
			}
		})
	}
	for _, gone := range []string{"sub-1", "ses_child", "cmp-empty", "cmp-bad", "hidden-one"} {
		if _, err := svc.Find(gone); err == nil {
			t.Errorf("%s should not be listed", gone)
		}
	}
	if _, err := svc.Find("claude-code:7d0e9f1a-1111-4222-8333-444455556666"); err == nil {
		t.Error("a Claude Code transcript the Claude app owns is listed once, under the Claude app")
	}
	counts := map[AppID]int{}
	for _, a := range svc.Apps() {
		counts[a.App] = a.Count
	}
	want := map[AppID]int{GeminiCLI: 2, QwenCode: 1, OpenCode: 2, CopilotCLI: 1, Cursor: 1, Devin: 1, Antigravity: 1, Kiro: 2, ClaudeApp: 1}
	for app, n := range want {
		if counts[app] != n {
			t.Errorf("%s count %d want %d", app, counts[app], n)
		}
	}
	// Tool calls and results get their own rows.
	p, _ := svc.Transcript(context.Background(), "opencode:ses_1", 0, 50)
	var kinds []string
	for _, r := range p.Rows {
		kinds = append(kinds, fmt.Sprintf("%s:%s", r.Kind, r.Name))
	}
	if strings.Join(kinds, ",") != "user:,tool_call:bash,tool_result:" {
		t.Fatalf("opencode rows %v", kinds)
	}
}

func TestSearch(t *testing.T) {
	home := otherAppsHome(t)
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	cases := []struct {
		q    string
		app  AppID
		want []string
	}{
		{"RETRY loop", "", []string{"g1aaaaaa-1111-4111-8111-111111111111"}}, // title, any case
		{"/w/login", "", []string{"3f2a9c1e-0b7d-4e55-9a41-6c2d8e1f7a10"}},   // folder
		{"feat/q", "", []string{"q1"}},                                       // branch
		{"devin", "", []string{"rain-salary"}},                               // app name
		{"rain-sal", "", []string{"rain-salary"}},                            // id
		{"It retries", "", nil},                                              // message bodies are not searched
		{"", Kiro, []string{"k3", "conv-1"}},                                 // chip filter, newest first
		{"session", OpenCode, []string{"ses_old"}},                           // both
	}
	for _, c := range cases {
		var got []string
		for _, s := range svc.List(c.q, c.app) {
			got = append(got, s.ID)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("search %q %s: got %v want %v", c.q, c.app, got, c.want)
		}
	}
}
