package inventory

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestClaudeCodeHeadAndTail(t *testing.T) {
	home := t.TempDir()
	cwd := "/Users/alex/code/shop-api"
	// The folder name is lossy (my.app and my-app collide): a wrong name
	// proves the cwd comes from the records.
	proj := filepath.Join(home, ".claude", "projects", "-Users-alex-code-shop-WRONG")
	id := "c5e1a7b2-9d40-4f3e-8b16-2a7c0e9d4f58"
	tail := []any{
		m{"type": "ai-title", "aiTitle": "Older AI title", "sessionId": id},
		m{"type": "custom-title", "customTitle": "Fix double charge on checkout retry", "sessionId": id},
		m{"type": "user", "cwd": cwd, "gitBranch": "fix/checkout-retry", "permissionMode": "plan", "isSidechain": false,
			"message": m{"role": "user", "content": "later question"}},
	}
	p := write(t, filepath.Join(proj, id+".jsonl"), claudeLines(id, cwd, "main", "Why does a retry charge twice?", tail...))
	write(t, filepath.Join(proj, id, "subagents", "agent-a1.jsonl"), claudeLines("a1", cwd, "main", "sub"))
	write(t, filepath.Join(proj, "agent-b2.jsonl"), claudeLines("b2", cwd, "main", "sub"))
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	all := svc.List("", "")
	if len(all) != 1 {
		t.Fatalf("want only the top-level transcript, got %d: %+v", len(all), all)
	}
	s := all[0]
	want := Session{App: ClaudeCode, ID: id, Folder: cwd, FolderName: "shop-api", Branch: "fix/checkout-retry",
		Title: "Fix double charge on checkout retry", Model: "claude-opus-4-5", Effort: "high", Mode: "plan", Path: p}
	if s.App != want.App || s.ID != want.ID || s.Folder != want.Folder || s.FolderName != want.FolderName ||
		s.Branch != want.Branch || s.Title != want.Title || s.Model != want.Model || s.Effort != want.Effort ||
		s.Mode != want.Mode || s.Path != want.Path {
		t.Fatalf("got %+v\nwant %+v", s, want)
	}
}

func TestClaudeTitleFallbacks(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, ".claude", "projects", "-x")
	cases := []struct {
		name, content, want string
	}{
		{"first real user message, 80 chars", jsonl(
			m{"type": "user", "cwd": "/w", "isSidechain": true, "message": m{"content": "sidechain text"}},
			m{"type": "user", "cwd": "/w", "message": m{"content": "<command-name>/clear</command-name>"}},
			m{"type": "user", "cwd": "/w", "message": m{"content": []m{{"type": "text", "text": strings.Repeat("word ", 40)}}}},
		), strings.TrimSpace(strings.Repeat("word ", 16)) + "…"},
		{"head title record when the tail has none", jsonl(
			m{"type": "custom-title", "customTitle": "Named early"},
			m{"type": "user", "cwd": "/w", "message": m{"content": "hello"}},
		), "Named early"},
		{"escape sequences and newlines are dropped", jsonl(
			m{"type": "custom-title", "customTitle": "evil\x1b[31mred\nline"},
			m{"type": "user", "cwd": "/w", "message": m{"content": "hello"}},
		), "evil [31mred line"},
	}
	for i, c := range cases {
		write(t, filepath.Join(proj, "s"+string(rune('a'+i))+".jsonl"), c.content)
	}
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := find(t, svc, "claude-code:s"+string(rune('a'+i)))
			if s.Title != c.want {
				t.Fatalf("title %q, want %q", s.Title, c.want)
			}
		})
	}
}

func TestClaudeHostileFiles(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, ".claude", "projects", "-w")
	good := claudeLines("good", "/w", "main", "hello")
	big := `{"type":"user","cwd":"/w","message":{"content":"` + strings.Repeat("A", 50<<20) + `"}}`
	write(t, filepath.Join(proj, "fifty.jsonl"), good+big+"\n"+jsonl(m{"type": "custom-title", "customTitle": "has a 50 MB line"}))
	write(t, filepath.Join(proj, "headlong.jsonl"), big[:300<<10]+"\n"+good) // over-long head line
	write(t, filepath.Join(proj, "garbage.jsonl"), "\x00\x01\xff\xfe{{{\n[1,2]\nnull\n"+good[:len(good)/2])
	write(t, filepath.Join(proj, "truncated.jsonl"), good[:len(good)-40])
	write(t, filepath.Join(proj, "empty.jsonl"), "")
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	for _, c := range []struct{ id, title, folder string }{
		{"fifty", "has a 50 MB line", "/w"},
		{"headlong", "Early title", "/w"},
		{"garbage", "Early title", "/w"},
		{"truncated", "Early title", "/w"},
	} {
		s := find(t, svc, "claude-code:"+c.id)
		if s.Title != c.title || s.Folder != c.folder {
			t.Errorf("%s: title %q folder %q, want %q %q", c.id, s.Title, s.Folder, c.title, c.folder)
		}
	}
	page, err := svc.Transcript(context.Background(), "claude-code:fifty", 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	var skipped bool
	for _, r := range page.Rows {
		if r.Kind == RowSkipped && r.Text == "[skipped 50 MB line]" {
			skipped = true
		}
	}
	if !skipped {
		t.Fatalf("the 50 MB line should show as one skipped row: %+v", page.Rows)
	}
}

func TestClaudeTranscriptRowsAndPaging(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".claude", "projects", "-w", "t1.jsonl"), claudeLines("t1", "/w", "main", "question"))
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	var kinds []string
	var cursor int64
	for i := 0; ; i++ {
		p, err := svc.Transcript(context.Background(), "t1", cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Rows {
			k := r.Kind
			if r.Name != "" {
				k += ":" + r.Name
			}
			kinds = append(kinds, k)
		}
		if p.Done {
			break
		}
		if p.Next <= cursor || i > 20 {
			t.Fatalf("cursor did not advance: %d -> %d", cursor, p.Next)
		}
		cursor = p.Next
	}
	want := "system,user,thinking,assistant,tool_call:Bash,tool_result"
	if got := strings.Join(kinds, ","); got != want {
		t.Fatalf("rows %s\nwant %s", got, want)
	}
}

func TestVanishedFileAndSymlinkLoop(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, ".claude", "projects", "-w")
	p := write(t, filepath.Join(proj, "gone.jsonl"), claudeLines("gone", "/w", "main", "x"))
	write(t, filepath.Join(proj, "stays.jsonl"), claudeLines("stays", "/w", "main", "x"))
	if err := os.Symlink(filepath.Join(home, ".claude", "projects"), filepath.Join(proj, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(proj, filepath.Join(home, ".claude", "projects", "loop2")); err != nil {
		t.Fatal(err)
	}
	units, err := claudeCode{}.Units(context.Background(), Env{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	for _, u := range units {
		if u.Path == p {
			_, err := claudeCode{}.Read(context.Background(), Env{Home: home}, u)
			if !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("reading a vanished file: %v, want ErrNotExist", err)
			}
		}
	}
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	if got := svc.List("", ""); len(got) != 1 || got[0].ID != "stays" {
		t.Fatalf("got %+v", got)
	}
}

func TestUnreadableFolderDoesNotStopTheScan(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".claude", "projects")
	write(t, filepath.Join(root, "-ok", "ok.jsonl"), claudeLines("ok", "/w", "main", "x"))
	locked := filepath.Join(root, "-locked")
	write(t, filepath.Join(locked, "hidden.jsonl"), claudeLines("hidden", "/w", "main", "x"))
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	find(t, svc, "claude-code:ok")
	if os.Geteuid() != 0 { // root reads through mode 000
		if _, err := svc.Find("claude-code:hidden"); err == nil {
			t.Fatal("a session in an unreadable folder was listed")
		}
	}
	_ = time.Now
}
