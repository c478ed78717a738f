package panestate

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
)

func TestResumeCommands(t *testing.T) {
	const id = "3f2a9c1e-0000-4000-8000-00000000abcd"
	cases := []struct {
		name string
		argv []string
		want []string
	}{
		{"claude alone", []string{"claude"}, []string{"claude", "--resume", id}},
		{"claude keeps its options", []string{"/usr/bin/claude", "--permission-mode", "plan", "--model=opus", "--add-dir", "a", "b", "--verbose"},
			[]string{"/usr/bin/claude", "--permission-mode", "plan", "--model=opus", "--add-dir", "a", "b", "--verbose", "--resume", id}},
		{"claude's first prompt is not sent again", []string{"claude", "--model", "opus", "fix the bug"}, []string{"claude", "--model", "opus", "--resume", id}},
		{"claude's own conversation choice is replaced", []string{"claude", "-r", "old", "-c", "--session-id", "x", "--fork-session"}, []string{"claude", "--resume", id}},
		{"claude --resume picker", []string{"claude", "--resume", "--permission-mode", "plan"}, []string{"claude", "--permission-mode", "plan", "--resume", id}},
		{"claude --print is not a conversation", []string{"claude", "-p", "hi"}, nil},
		{"codex alone", []string{"codex"}, []string{"codex", "resume", id}},
		{"codex keeps its options", []string{"codex", "-m", "gpt-5.5", "-s", "read-only", "--search", "-c", "model_reasoning_effort=high"},
			[]string{"codex", "resume", id, "-m", "gpt-5.5", "-s", "read-only", "--search", "-c", "model_reasoning_effort=high"}},
		{"codex's first prompt is not sent again", []string{"codex", "-m", "gpt-5.5", "add a test", "-i", "a.png"}, []string{"codex", "resume", id, "-m", "gpt-5.5"}},
		{"codex resume of another session", []string{"codex", "resume", "--last", "-m", "o3"}, []string{"codex", "resume", id, "-m", "o3"}},
		{"codex exec is not a conversation", []string{"codex", "exec", "do it"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			if strings.HasSuffix(c.argv[0], "claude") {
				got = claudeResume(c.argv, id)
			} else {
				got = codexResume(c.argv, id)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("resume of %q = %q, want %q", c.argv, got, c.want)
			}
		})
	}
}

// Only a pane started as an agent, with a conversation whose file still
// exists and an id that cannot read as an option, is resumed.
func TestResumePlan(t *testing.T) {
	r := newRig(t, Config{})
	file := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(file, []byte(`{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"), 0o600)
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, []byte(`{"type":"file-history-snapshot"}`+"\n"), 0o600)
	cases := []struct {
		name string
		sp   terminal.Spec
		want []string
	}{
		{"claude", terminal.Spec{Argv: []string{"claude"}, Session: terminal.Session{ID: "abc-1", File: file}}, []string{"claude", "--resume", "abc-1"}},
		{"no conversation file yet", terminal.Spec{Argv: []string{"claude"}, Session: terminal.Session{ID: "abc-1", File: file + ".gone"}}, nil},
		{"a conversation without messages", terminal.Spec{Argv: []string{"claude"}, Session: terminal.Session{ID: "abc-1", File: empty}}, nil},
		{"a shell comes back as a shell", terminal.Spec{Argv: []string{"/bin/bash"}, Session: terminal.Session{ID: "abc-1"}}, nil},
		{"an id that reads as an option", terminal.Spec{Argv: []string{"claude"}, Session: terminal.Session{ID: "--dangerously-skip-permissions"}}, nil},
		{"an id with a space", terminal.Spec{Argv: []string{"codex"}, Session: terminal.Session{ID: "a b"}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, why := r.w.resumePlan(c.sp, nil)
			if c.name == "no conversation file yet" && why != "Started a new Claude Code conversation: the last one (abc-1) had no messages to resume" {
				t.Errorf("why = %q, want it to say a new conversation started", why)
			}
			if !reflect.DeepEqual(got, c.want) || (got != nil) != strings.HasPrefix(why, "Resumed ") {
				t.Fatalf("plan = %q (%q), want %q", got, why, c.want)
			}
		})
	}
}

// Codex's app-server daemon, not the pane, holds the rollout: a codex
// pane's conversation is the rollout Codex created for its folder since it
// started, the one whose first message is on its screen when two panes
// share the folder; never one from before the pane started, another
// folder's, another pane's or a broken file.
func TestCodexThreadByFolderAndScreen(t *testing.T) {
	sessions := t.TempDir()
	work, other := t.TempDir(), t.TempDir()
	started := time.Now()
	day := filepath.Join(sessions, started.Format("2006"), started.Format("01"), started.Format("02"))
	os.MkdirAll(day, 0o700)
	write := func(id, cwd string, at time.Time, first string) string {
		f := filepath.Join(day, "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
		meta := `{"timestamp":"x","type":"session_meta","payload":{"id":"` + id + `","timestamp":"` + at.UTC().Format(time.RFC3339Nano) + `","cwd":"` + cwd + `","base_instructions":{"text":"` + strings.Repeat("x", 100<<10) + `"}}}` + "\n"
		ctx := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>` + cwd + `</cwd>"}]}}` + "\n"
		msg := ""
		if first != "" {
			msg = `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + first + `"}]}}` + "\n"
		}
		os.WriteFile(f, []byte(meta+ctx+msg), 0o600)
		os.Chtimes(f, at, at)
		return f
	}
	write("0000old0", work, started.Add(-time.Hour), "Fix the login page")
	write("0000othr", other, started.Add(3*time.Second), "Fix the login page")
	mine := write("0000mine", work, started.Add(2*time.Second), "Fix the login page please, the button does not react")
	theirs := write("0000thrs", work, started.Add(3*time.Second), "Write the release notes")
	taken := write("0000took", work, started.Add(4*time.Second), "Fix the login page please, the button does not react")
	os.WriteFile(filepath.Join(day, "rollout-broken.jsonl"), []byte("{not json\n"), 0o600)
	notTaken := func(f string) bool { return f == taken }
	// The screen wraps the message with Codex's indent.
	screen := "› Fix the login page please, the\n  button does not react\n\n• Looking at it."
	cases := []struct {
		name   string
		screen string
		others []string
		want   string // "" for none
		file   string
	}{
		{"its first message on screen", screen, []string{work}, "0000mine", mine},
		{"alone in the folder, nothing on screen", "", nil, "0000thrs", theirs},
		{"another pane in the folder, nothing on screen", "", []string{work}, "", ""},
		{"another pane elsewhere, nothing on screen", "", []string{other}, "0000thrs", theirs},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			view := paneView{dir: work, started: started, screen: c.screen}
			got, ok := codexThreadFor(sessions, view, started.Add(5*time.Second), notTaken, c.others)
			if got.ID != c.want || ok != (c.want != "") || got.File != c.file {
				t.Fatalf("thread = %+v %v, want %q in %s", got, ok, c.want, c.file)
			}
		})
	}
}

// Claude Code run with the user's own --settings has none of the app's
// hooks: its conversation is the newest transcript in its project folder
// since the pane started that no other pane took.
func TestClaudeTranscriptByFolder(t *testing.T) {
	home := t.TempDir()
	folder := claudeProjectDir([]string{"HOME=" + home}, "/work/shop_api.v2")
	if want := filepath.Join(home, ".claude", "projects", "-work-shop-api-v2"); folder != want {
		t.Fatalf("project folder = %s, want %s", folder, want)
	}
	if got := claudeProjectDir([]string{"HOME=" + home, "CLAUDE_CONFIG_DIR=/cfg"}, "/w"); got != "/cfg/projects/-w" {
		t.Fatalf("with CLAUDE_CONFIG_DIR: %s", got)
	}
	os.MkdirAll(filepath.Join(folder, "0000mine", "subagents"), 0o700)
	started := time.Now()
	write := func(name string, at time.Time) string {
		f := filepath.Join(folder, name)
		os.WriteFile(f, []byte(`{"type":"user"}`+"\n"), 0o600)
		os.Chtimes(f, at, at)
		return f
	}
	write("0000old0.jsonl", started.Add(-time.Hour))
	mine := write("0000mine.jsonl", started.Add(time.Second))
	taken := write("0000took.jsonl", started.Add(2*time.Second))
	write("-bad.jsonl", started.Add(3*time.Second))
	got, ok := transcriptFor(folder, started, started.Add(5*time.Second), func(f string) bool { return f == taken })
	if !ok || got.ID != "0000mine" || got.File != mine {
		t.Fatalf("transcript = %+v %v, want 0000mine", got, ok)
	}
}
