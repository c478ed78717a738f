package inventory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rollouts shaped the way older and newer Codex versions write them.

// legacyRollout is the layout Codex wrote before September 2025: a bare
// meta line, bare response items and {"record_type":"state"} markers.
func legacyRollout(id, cwd, branch, prompt string) string {
	return jsonl(
		m{"id": id, "timestamp": "2025-05-07T17:24:21.123Z", "instructions": "Be terse.", "git": m{"commit_hash": "0a1b2c", "branch": branch, "repository_url": "git@github.com:acme/shop.git"}},
		m{"record_type": "state"},
		m{"type": "message", "id": nil, "role": "user", "content": []m{{"type": "input_text", "text": "<user_instructions>\n\nAlways run the tests.\n\n</user_instructions>"}}},
		m{"type": "message", "id": nil, "role": "user", "content": []m{{"type": "input_text", "text": "<environment_context>\n  <cwd>" + cwd + "</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>zsh</shell>\n</environment_context>"}}},
		m{"type": "message", "id": nil, "role": "user", "content": []m{{"type": "input_text", "text": prompt}}},
		m{"record_type": "state"},
		m{"type": "reasoning", "id": "rs_1", "summary": []m{{"type": "summary_text", "text": "**Looking at the tests**"}}, "encrypted_content": "gAAAA"},
		m{"type": "function_call", "id": "fc_1", "name": "shell", "arguments": `{"command":["bash","-lc","go test ./..."]}`, "call_id": "call_1"},
		m{"type": "function_call_output", "call_id": "call_1", "output": `{"output":"ok\n","metadata":{"exit_code":0,"duration_seconds":1.2}}`},
		m{"record_type": "state"},
		m{"type": "message", "id": "msg_1", "role": "assistant", "content": []m{{"type": "output_text", "text": "Fixed."}}},
	)
}

func TestCodexVersionVariants(t *testing.T) {
	home := t.TempDir()
	cx := filepath.Join(home, ".codex")
	day := filepath.Join(cx, "sessions", "2025", "05", "07")
	legacyID := "5973b6c0-94b8-487b-a530-2aeb6098ae0e"
	folder := t.TempDir()
	write(t, filepath.Join(day, "rollout-2025-05-07T17-24-21-"+legacyID+".jsonl"), legacyRollout(legacyID, folder, "fix/flaky", "Fix the flaky checkout test"))

	// A forked thread: its own meta first, then its parent's.
	forkID, parentID := "019a2f1c-0000-7000-8000-0000000000f1", "019a2f1c-0000-7000-8000-0000000000f0"
	parent := rollout(parentID, "/w/parent", "codex_cli_rs", "main", "Parent prompt", m{"model": "gpt-5-codex"})
	fork := rollout(forkID, "/w/fork", "codex-tui", "fork-branch", "Fork prompt", m{"model": "gpt-5-codex"})
	lines := strings.SplitAfter(fork, "\n")
	write(t, filepath.Join(cx, "sessions", "2026", "03", "01", "rollout-2026-03-01T10-00-00-"+forkID+".jsonl"),
		lines[0]+strings.SplitAfter(parent, "\n")[0]+strings.Join(lines[1:], ""))

	// AGENTS.md and IDE-context preambles before the prompt, no user_message
	// event, and line types a newer version adds.
	agentsID := "019a2f1c-0000-7000-8000-0000000000a9"
	write(t, filepath.Join(cx, "sessions", "2026", "06", "01", "rollout-2026-06-01T10-00-00-"+agentsID+".jsonl"), jsonl(
		m{"timestamp": "2026-06-01T10:00:00Z", "type": "session_meta", "payload": m{"id": agentsID, "cwd": "/w/api", "originator": "codex_vscode", "cli_version": "0.150.0", "source": "vscode", "base_instructions": m{"text": "You are Codex."}}},
		m{"timestamp": "2026-06-01T10:00:00Z", "type": "world_state", "payload": m{"full": true, "state": m{"agents_md": "x"}}},
		m{"timestamp": "2026-06-01T10:00:00Z", "type": "response_item", "payload": m{"type": "message", "role": "user", "content": []m{{"type": "input_text", "text": "# AGENTS.md instructions for /w/api\n\n<INSTRUCTIONS>\nKeep changes small.\n</INSTRUCTIONS>"}}}},
		m{"timestamp": "2026-06-01T10:00:00Z", "type": "response_item", "payload": m{"type": "message", "role": "user", "content": []m{{"type": "input_text", "text": "<environment_context>\n  <cwd>/w/api</cwd>\n</environment_context>"}}}},
		m{"timestamp": "2026-06-01T10:00:01Z", "type": "response_item", "payload": m{"type": "message", "role": "user", "content": []m{{"type": "input_text", "text": "# Context from my IDE setup:\n\n## Active file: api/main.go\n\n## My request for Codex:\nAdd a health endpoint\n"}}}},
		m{"timestamp": "2026-06-01T10:00:02Z", "type": "inter_agent_communication", "payload": m{"x": 1}},
		m{"timestamp": "2026-06-01T10:00:03Z", "type": "compacted", "payload": m{"message": "", "replacement_history": []m{}}},
	))

	// An archived rollout.
	archID := "019a2f1c-0000-7000-8000-0000000000ac"
	archFolder := t.TempDir()
	write(t, filepath.Join(cx, "archived_sessions", "rollout-2026-01-02T10-00-00-"+archID+".jsonl"),
		rollout(archID, archFolder, "codex_cli_rs", "", "Archived prompt", m{"model": "gpt-5", "approval_policy": "on-request"}))
	write(t, filepath.Join(cx, "auth.json"), `{"tokens":"secret"}`)

	// A meta line over the head's line cap (a very long AGENTS.md in the
	// instructions): the id comes from the file name, the folder from the
	// environment context.
	bigID := "019a2f1c-0000-7000-8000-0000000000b1"
	big := strings.Replace(rollout(bigID, "/w/big", "codex_cli_rs", "main", "Big meta prompt", m{"model": "gpt-5"}),
		`"You are Codex. `, `"`+strings.Repeat("Follow AGENTS.md. ", 20000), 1)
	big = strings.Replace(big, `\u003cenvironment_context\u003ecwd`, `\u003cenvironment_context\u003e\n  \u003ccwd\u003e/w/big\u003c/cwd\u003e\n`, 1)
	write(t, filepath.Join(cx, "sessions", "2026", "04", "01", "rollout-2026-04-01T10-00-00-"+bigID+".jsonl"), big)

	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)

	leg := find(t, svc, "codex-cli:"+legacyID)
	if leg.Folder != folder || leg.Branch != "fix/flaky" || leg.Title != "Fix the flaky checkout test" || leg.Mode != "on-request" || leg.Sandbox != "workspace-write" {
		t.Errorf("older layout: %+v", leg)
	}
	rows := codexRowSummary(t, svc, leg.Key)
	if want := "system,user,thinking,tool_call:shell,tool_result,assistant"; rows != want {
		t.Errorf("older layout rows %s\nwant %s", rows, want)
	}
	plan, err := planFor(t, leg, PlanOptions{}, &fakeRunner{})
	if err != nil || strings.Join(plan.Argv, " ") != "codex resume "+legacyID+" -a on-request -s workspace-write" {
		t.Errorf("older layout plan %v: %v", plan.Argv, err)
	}

	f := find(t, svc, "codex-cli:"+forkID)
	if f.Folder != "/w/fork" || f.Branch != "fork-branch" || f.Title != "Fork prompt" {
		t.Errorf("forked rollout took its parent's meta: %+v", f)
	}
	if _, err := svc.Find("codex-cli:" + parentID); err == nil {
		t.Error("the parent named only inside a fork was listed")
	}

	a := find(t, svc, "codex-app:"+agentsID)
	if a.Title != "Add a health endpoint" {
		t.Errorf("preambles became the title: %q", a.Title)
	}
	if rows := codexRowSummary(t, svc, a.Key); rows != "system,user,system" { // started, the prompt, compacted
		t.Errorf("newer line types rows %s", rows)
	}

	if b := find(t, svc, "codex-cli:"+bigID); b.Folder != "/w/big" || b.Title != "Big meta prompt" || b.Model != "gpt-5" {
		t.Errorf("over-long meta line: %+v", b)
	}

	ar := find(t, svc, "codex-cli:"+archID)
	if !ar.Archived || ar.Title != "Archived prompt" {
		t.Errorf("archived rollout: %+v", ar)
	}
	plan, err = planFor(t, ar, PlanOptions{}, &fakeRunner{})
	if err != nil || strings.Join(plan.Argv, " ") != "codex resume "+archID+" -m gpt-5 -a on-request" {
		t.Errorf("archived plan %v: %v", plan.Argv, err)
	}
}

func codexRowSummary(t *testing.T, svc *Service, key string) string {
	t.Helper()
	p, err := svc.Transcript(context.Background(), key, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range p.Rows {
		k := r.Kind
		if r.Name != "" {
			k += ":" + r.Name
		}
		kinds = append(kinds, k)
	}
	return strings.Join(kinds, ",")
}

// TestCodexHomeEnv: CODEX_HOME moves the store.
func TestCodexHomeEnv(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(t.TempDir(), "codex-work")
	id := "019a2f1c-0000-7000-8000-0000000000e1"
	write(t, filepath.Join(ch, "sessions", "2026", "02", "03", "rollout-2026-02-03T10-00-00-"+id+".jsonl"),
		rollout(id, "/w", "codex_cli_rs", "main", "From CODEX_HOME", m{}))
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	svc, err := New(context.Background(), nil, Options{Env: Env{Home: home, GOOS: "linux", Getenv: func(k string) string {
		if k == "CODEX_HOME" {
			return ch
		}
		return ""
	}}, Runner: &fakeRunner{}})
	if err != nil {
		t.Fatal(err)
	}
	refresh(t, svc)
	if s := find(t, svc, "codex-cli:"+id); s.Title != "From CODEX_HOME" {
		t.Fatalf("%+v", s)
	}
}
