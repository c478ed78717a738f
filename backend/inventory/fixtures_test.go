package inventory

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/fixtures"
)

// Tests on the session stores the real CLIs wrote while the fixtures were
// recorded (backend/testkit/fixtures/testdata/stores, laid out as each
// CLI's HOME). Expected values come from a plain full JSON parse of the
// same files, independent of the index's head/tail reader.

func realStore(t *testing.T, name string) string {
	t.Helper()
	dir, err := fixtures.Store(name)
	if err != nil {
		t.Skipf("%v", err)
	}
	return dir
}

// fileSnapshot lists every file under dir with its size and mtime, to prove
// the index wrote nothing next to the apps' files.
func fileSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fmt.Sprint(info.ModTime().UnixNano(), info.Mode(), info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// eachJSONL decodes every line of a JSONL file into a generic map.
func eachJSONL(t *testing.T, p string, fn func(rec map[string]any)) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			fn(rec)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func sget(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func sstr(v any, keys ...string) string { s, _ := sget(v, keys...).(string); return s }

// allRows pages through a whole transcript and counts rows per kind.
func allRows(t *testing.T, svc *Service, key string) map[string]int {
	t.Helper()
	kinds := map[string]int{}
	var cur int64
	for range 1000 {
		p, err := svc.Transcript(context.Background(), key, cur, 7) // small pages: exercise the cursor
		if err != nil {
			t.Fatalf("transcript %s: %v", key, err)
		}
		for _, r := range p.Rows {
			kinds[r.Kind]++
		}
		if p.Done {
			return kinds
		}
		cur = p.Next
	}
	t.Fatalf("transcript %s never ended", key)
	return nil
}

// indexRealStore indexes one recorded store with a fresh service and returns
// its one session, and a check for the test's end: reading the store changed
// none of its files and wrote none next to them.
func indexRealStore(t *testing.T, name string) (home string, svc *Service, s Session, unchanged func()) {
	t.Helper()
	home = realStore(t, name)
	before := fileSnapshot(t, home)
	svc = newTestService(t, home, nil, nil)
	refresh(t, svc)
	s = onlySession(t, svc)
	return home, svc, s, func() {
		t.Helper()
		after := fileSnapshot(t, home)
		for p, v := range before {
			if after[p] != v {
				t.Fatalf("%s changed while the store was read", p)
			}
		}
		if len(after) != len(before) {
			t.Fatalf("files appeared next to the store's: %d before, %d after", len(before), len(after))
		}
	}
}

func onlySession(t *testing.T, svc *Service) Session {
	t.Helper()
	list := svc.List("", "")
	if len(list) != 1 {
		t.Fatalf("got %d sessions, want the 1 the CLI recorded: %+v", len(list), list)
	}
	return list[0]
}

func TestRealClaudeCodeStores(t *testing.T) {
	for _, name := range []string{"claude-2.1.328", "claude-fullscreen-2.1.328", "claude-headless-2.1.328.text", "claude-headless-2.1.328.tools", "claude-headless-2.1.328.mcp"} {
		t.Run(name, func(t *testing.T) {
			_, svc, s, unchanged := indexRealStore(t, name)
			var cwd, model, version, title, mode string
			var firstUser string
			uses, results := 0, 0
			eachJSONL(t, s.Path, func(r map[string]any) {
				typ := sstr(r, "type")
				if cwd == "" {
					cwd = sstr(r, "cwd")
				}
				if v := sstr(r, "version"); v != "" {
					version = v
				}
				switch typ {
				case "custom-title":
					title = sstr(r, "customTitle")
				case "ai-title":
					title = sstr(r, "aiTitle")
				case "assistant":
					if m := sstr(r, "message", "model"); m != "" {
						model = m
					}
				case "user":
					if m := sstr(r, "permissionMode"); m != "" {
						mode = m
					}
					if c := sstr(r, "message", "content"); firstUser == "" && c != "" && !strings.HasPrefix(c, "<") {
						firstUser = c
					}
				}
				if blocks, ok := sget(r, "message", "content").([]any); ok && (typ == "user" || typ == "assistant") {
					for _, b := range blocks {
						switch sstr(b, "type") {
						case "tool_use":
							uses++
						case "tool_result":
							results++
						}
					}
				}
			})
			if title == "" {
				title = cleanText(firstUser, 80)
			}
			id := strings.TrimSuffix(filepath.Base(s.Path), ".jsonl")
			if s.ID != id || s.Folder != cwd || s.Model != model || s.Version != version || s.Title != title || s.Mode != mode {
				t.Fatalf("session = %+v\nwant id %s folder %s model %s version %s title %q mode %s", s, id, cwd, model, version, title, mode)
			}
			kinds := allRows(t, svc, s.Key)
			if kinds[RowToolCall] != uses || kinds[RowToolResult] != results {
				t.Fatalf("rows %v: want %d tool calls and %d results, each on its own row", kinds, uses, results)
			}
			if kinds[RowUser] == 0 || kinds[RowAssistant] == 0 {
				t.Fatalf("rows %v: want user and assistant rows", kinds)
			}
			unchanged()
		})
	}
}

func TestRealCodexStores(t *testing.T) {
	// codex-daemon: the CLI as a person runs it, its conversation kept by
	// the app-server daemon (session_meta source "vscode", originator
	// "codex-tui"); still the Codex CLI, not the Codex app.
	for _, name := range []string{"codex-0.169.0", "codex-inline-0.169.0", "codex-daemon-0.169.0", "codex-headless-0.169.0.text", "codex-headless-0.169.0.tools", "codex-headless-0.169.0.mcp"} {
		t.Run(name, func(t *testing.T) {
			home, svc, s, unchanged := indexRealStore(t, name)

			if !strings.HasPrefix(s.Path, home) {
				t.Fatalf("transcript path %s is outside the store: a stale rollout_path must give way to the file on disk", s.Path)
			}
			if _, err := os.Stat(s.Path); err != nil {
				t.Fatalf("transcript path %s: %v (a stale rollout_path must give way to the file on disk)", s.Path, err)
			}
			var id, cwd, version string
			calls, outputs := 0, 0
			eachJSONL(t, s.Path, func(r map[string]any) {
				p := sget(r, "payload")
				switch sstr(r, "type") {
				case "session_meta":
					id, cwd, version = sstr(p, "id"), sstr(p, "cwd"), sstr(p, "cli_version")
				case "response_item":
					switch sstr(p, "type") {
					case "function_call", "custom_tool_call":
						calls++
					case "function_call_output", "custom_tool_call_output":
						outputs++
					}
				}
			})
			if s.ID != id || s.Folder != cwd || s.Version != version {
				t.Fatalf("session = %+v\nwant id %s folder %s version %s", s, id, cwd, version)
			}
			if s.Title == "" || strings.HasPrefix(s.Title, "<") {
				t.Fatalf("title %q: want the user's first prompt", s.Title)
			}
			if s.App != CodexCLI || s.Model == "" {
				t.Fatalf("session = %+v: want Codex CLI and the recorded model", s)
			}
			kinds := allRows(t, svc, s.Key)
			if kinds[RowToolCall] != calls || kinds[RowToolResult] != outputs {
				t.Fatalf("rows %v: want %d tool calls and %d outputs, each on its own row", kinds, calls, outputs)
			}
			unchanged()
		})
	}
}

// TestRealStorePlans relaunches the recorded sessions (in a temporary
// folder standing in for the recorder's) with help text shaped like the
// installed CLIs'.
func TestRealStorePlans(t *testing.T) {
	cases := []struct {
		store     string
		keep      bool
		argv      string
		permitted string // label offered as a tick, "" for none
	}{
		// bypassPermissions asks less than the default: passed only when ticked.
		{"claude-headless-2.1.328.tools", false, "claude --resume * --model claude-opus-5-5 --effort medium", "Approval mode"},
		{"claude-headless-2.1.328.tools", true, "claude --resume * --model claude-opus-5-5 --effort medium --permission-mode bypassPermissions", "Approval mode"},
		// Codex 0.169's database records a "managed" permission profile, which
		// is no -s value; its rollout records the classic read-only.
		{"codex-0.169.0", false, "codex resume * -m gpt-5.5 -c model_reasoning_effort=\"medium\" -a on-request -s read-only", ""},
		{"codex-inline-0.169.0", false, "codex resume * -m gpt-5.5 -c model_reasoning_effort=\"medium\" -a on-request -s read-only", ""},
		// `codex exec` ran with approval "never": passed only when ticked.
		{"codex-headless-0.169.0.tools", false, "codex resume * -m gpt-5.5 -s workspace-write", "Approval"},
		{"codex-headless-0.169.0.tools", true, "codex resume * -m gpt-5.5 -a never -s workspace-write", "Approval"},
	}
	for _, tc := range cases {
		t.Run(tc.store, func(t *testing.T) {
			svc := newTestService(t, realStore(t, tc.store), nil, nil)
			refresh(t, svc)
			s := onlySession(t, svc)
			s.Folder = ""
			p, err := planFor(t, s, PlanOptions{KeepPermissions: tc.keep}, &fakeRunner{})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(p.Argv, " "), strings.Replace(tc.argv, "*", s.ID, 1); got != want {
				t.Fatalf("argv\n got %s\nwant %s", got, want)
			}
			offered := ""
			for _, v := range p.Values {
				if v.Permissive {
					offered = v.Label
				}
			}
			if offered != tc.permitted {
				t.Fatalf("tick offered for %q, want %q (values %+v)", offered, tc.permitted, p.Values)
			}
		})
	}
}

// TestRealGeminiQwenOpenCodeStores checks the stores Gemini CLI 0.61, Qwen
// Code 0.24 and OpenCode 1.18 wrote: one session each, with its folder and
// every tool call and result on its own row.
func TestRealGeminiQwenOpenCodeStores(t *testing.T) {
	for _, name := range []string{"gemini-0.61.0", "gemini-headless-0.61.0.tools", "qwen-0.24.4", "qwen-headless-0.24.4.tools", "opencode-1.18.33", "opencode-headless-1.18.33.tools"} {
		t.Run(name, func(t *testing.T) {
			home, svc, s, unchanged := indexRealStore(t, name)
			var calls, results int
			var cwd string
			switch {
			case strings.HasPrefix(name, "gemini"):
				// An append log: a message is written again as it grows, and
				// the last copy of an id wins.
				last := map[string]map[string]any{}
				var order []string
				eachJSONL(t, s.Path, func(r map[string]any) {
					if id := sstr(r, "id"); id != "" && sstr(r, "type") == "gemini" {
						if _, ok := last[id]; !ok {
							order = append(order, id)
						}
						last[id] = r
					}
				})
				for _, id := range order {
					tc, _ := last[id]["toolCalls"].([]any)
					calls += len(tc)
				}
				results = calls
				// The chat records a hash of the folder; .project_root names it.
				root, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(s.Path)), ".project_root"))
				if err != nil {
					t.Fatal(err)
				}
				cwd = strings.TrimSpace(string(root))
			case strings.HasPrefix(name, "qwen"):
				eachJSONL(t, s.Path, func(r map[string]any) {
					if cwd == "" {
						cwd = sstr(r, "cwd")
					}
					parts, _ := sget(r, "message", "parts").([]any)
					for _, p := range parts {
						if sget(p, "functionCall") != nil {
							calls++
						}
						if sget(p, "functionResponse") != nil {
							results++
						}
					}
				})
			default:
				calls, cwd = openCodeToolParts(t, filepath.Join(home, ".local", "share", "opencode", "opencode.db"), s.ID)
				results = calls
			}
			if s.Folder != cwd || s.Title == "" {
				t.Fatalf("session = %+v, want folder %s and a title", s, cwd)
			}
			kinds := allRows(t, svc, s.Key)
			if kinds[RowToolCall] != calls || kinds[RowToolResult] != results || kinds[RowUser] == 0 {
				t.Fatalf("rows %v: want %d tool calls and %d results, each on its own row", kinds, calls, results)
			}
			unchanged()
		})
	}
}

// openCodeToolParts counts a session's tool parts and reads its folder from
// a private copy of OpenCode's database and log, opened the ordinary way.
func openCodeToolParts(t *testing.T, db, id string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	for _, suf := range []string{"", "-wal"} {
		b, err := os.ReadFile(db + suf)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "copy.db"+suf), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := sql.Open("sqlite", filepath.Join(dir, "copy.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	var folder string
	if err := conn.QueryRow(`SELECT count(*) FROM part WHERE session_id = ? AND json_extract(data, '$.type') = 'tool'`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(`SELECT directory FROM session WHERE id = ?`, id).Scan(&folder); err != nil {
		t.Fatal(err)
	}
	return n, folder
}
