package inventory

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func codexHomeFixture(t *testing.T) (home, rolloutA string) {
	home = t.TempDir()
	cx := filepath.Join(home, ".codex")
	ctxA := m{"cwd": "/w/shop-web", "approval_policy": "on-request", "sandbox_policy": m{"type": "workspace-write"}, "model": "gpt-5.3-codex", "effort": "high"}
	rolloutA = write(t, filepath.Join(cx, "sessions", "2026", "11", "04", "rollout-2026-11-04T10-00-00-019a2f1c-0000-7000-8000-00000000000a.jsonl"),
		rollout("019a2f1c-0000-7000-8000-00000000000a", "/w/shop-web", "codex_cli_rs", "test/checkout-e2e", "Add the checkout e2e test", ctxA))
	write(t, filepath.Join(cx, "sessions", "2026", "11", "05", "rollout-2026-11-05T10-00-00-019a2f1c-0000-7000-8000-00000000000b.jsonl"),
		rollout("019a2f1c-0000-7000-8000-00000000000b", "/w/app", "Codex Desktop", "main", "Desktop thread", m{"approval_policy": "never"}))
	write(t, filepath.Join(cx, "archived_sessions", "rollout-2026-10-01T10-00-00-019a2f1c-0000-7000-8000-00000000000c.jsonl"),
		rollout("019a2f1c-0000-7000-8000-00000000000c", "/w/old", "codex_cli_rs", "", "Archived thing", m{}))
	sub := strings.Replace(rollout("019a2f1c-0000-7000-8000-00000000000d", "/w/x", "codex_cli_rs", "", "sub", m{}), `"source":"cli"`, `"source":{"subagent":"review"}`, 1)
	write(t, filepath.Join(cx, "sessions", "2026", "11", "05", "rollout-2026-11-05T11-00-00-019a2f1c-0000-7000-8000-00000000000d.jsonl"), sub)
	write(t, filepath.Join(cx, "auth.json"), `{"tokens":"secret"}`)
	return home, rolloutA
}

func codexDB(t *testing.T, home string, n int, rows ...string) string {
	p := filepath.Join(home, ".codex", fmt.Sprintf("state_%d.sqlite", n))
	sqliteFile(t, p, append([]string{codexThreadsSchema}, rows...)...)
	return p
}

func TestCodexStateDBPreferred(t *testing.T) {
	home, ra := codexHomeFixture(t)
	codexDB(t, home, 3, `INSERT INTO threads (id, title, cwd) VALUES ('old-db', 'from state_3', '/w')`)
	codexDB(t, home, 5,
		fmt.Sprintf(`INSERT INTO threads (id, rollout_path, cwd, git_branch, title, model, reasoning_effort, approval_mode, sandbox_policy, source, archived, updated_at_ms, originator)
		VALUES ('019a2f1c-0000-7000-8000-00000000000a', '%s', '/w/shop-web', 'test/checkout-e2e', 'Checkout e2e from the DB', 'gpt-5.3-codex', 'medium', 'on-request', '{"type":"read-only"}', 'cli', 0, 1780000000000, 'codex_cli_rs')`, ra),
		`INSERT INTO threads (id, cwd, title, source, updated_at_ms) VALUES ('sub-thread', '/w', 'sub', '{"subagent":{"thread_spawn":{}}}', 1780000000001)`,
		`INSERT INTO threads (id, cwd, title, source, archived, updated_at_ms, originator) VALUES ('019a2f1c-0000-7000-8000-00000000000e', '/w/arch', 'Archived in DB', 'vscode', 1, 1, 'Codex Desktop')`)
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	a := find(t, svc, "codex-cli:019a2f1c-0000-7000-8000-00000000000a")
	if a.Title != "Checkout e2e from the DB" || a.Effort != "medium" || a.Sandbox != "read-only" || a.Mode != "on-request" || a.Path != ra {
		t.Fatalf("db row should win: %+v", a)
	}
	b := find(t, svc, "codex-app:019a2f1c-0000-7000-8000-00000000000b") // only in rollouts (not yet checkpointed)
	if b.Mode != "never" || b.Title != "Desktop thread" {
		t.Fatalf("rollout thread: %+v", b)
	}
	if e := find(t, svc, "codex-app:019a2f1c-0000-7000-8000-00000000000e"); !e.Archived {
		t.Fatalf("archived: %+v", e)
	}
	find(t, svc, "codex-cli:019a2f1c-0000-7000-8000-00000000000c")
	for _, bad := range []string{"sub-thread", "019a2f1c-0000-7000-8000-00000000000d", "old-db"} {
		if _, err := svc.Find(bad); err == nil {
			t.Errorf("%s should not be listed (sub-agent or older state DB)", bad)
		}
	}
	page, err := svc.Transcript(context.Background(), a.Key, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range page.Rows {
		kinds = append(kinds, r.Kind+":"+r.Name)
	}
	if got := strings.Join(kinds, ","); got != "system:,user:,thinking:,tool_call:shell,tool_result:,assistant:" {
		t.Fatalf("rows %s", got)
	}
}

func TestCodexFallsBackToRollouts(t *testing.T) {
	cases := map[string]func(t *testing.T, home string){
		"corrupt": func(t *testing.T, home string) {
			write(t, filepath.Join(home, ".codex", "state_5.sqlite"), "SQLite format 3\x00 garbage garbage")
		},
		"no threads table": func(t *testing.T, home string) {
			sqliteFile(t, filepath.Join(home, ".codex", "state_5.sqlite"), `CREATE TABLE other (x)`)
		},
		"locked by a writer": func(t *testing.T, home string) {
			p := codexDB(t, home, 5, `INSERT INTO threads (id, cwd, title, source, updated_at_ms) VALUES ('019a2f1c-0000-7000-8000-00000000000a', '/w/shop-web', 'Locked DB title', 'cli', 5)`)
			db, err := sql.Open("sqlite", "file:"+p)
			if err != nil {
				t.Fatal(err)
			}
			db.SetMaxOpenConns(1)
			t.Cleanup(func() { db.Exec("ROLLBACK"); db.Close() })
			if _, err := db.Exec("BEGIN EXCLUSIVE"); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			home, _ := codexHomeFixture(t)
			setup(t, home)
			svc := newTestService(t, home, nil, nil)
			refresh(t, svc)
			s := find(t, svc, "codex-cli:019a2f1c-0000-7000-8000-00000000000a")
			if s.Folder != "/w/shop-web" || s.Branch != "test/checkout-e2e" || s.Model != "gpt-5.3-codex" {
				t.Fatalf("%+v", s)
			}
			if name == "locked by a writer" && s.Title != "Locked DB title" {
				t.Fatalf("immutable open should read a locked DB: %+v", s)
			}
		})
	}
}

func TestCodexDBNotModified(t *testing.T) {
	home, _ := codexHomeFixture(t)
	p := codexDB(t, home, 5, `INSERT INTO threads (id, cwd, title, source) VALUES ('x1', '/w', 't', 'cli')`)
	before, _ := os.ReadDir(filepath.Dir(p))
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	after, _ := os.ReadDir(filepath.Dir(p))
	if len(before) != len(after) {
		t.Fatalf("reading created files next to Codex's: %d -> %d", len(before), len(after))
	}
}
