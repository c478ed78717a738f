package board

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/inventory"
)

// A pane restored after a restart resumes a Codex session in which the
// real Codex 0.169 ran three commands (the recorded daemon store); the
// pane itself recorded nothing since the restore. Its Done summary lists
// the session's own activity, not "Nothing was recorded".
func TestRestoredPaneSummaryListsTheResumedSessionsActivity(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join("..", "testkit", "fixtures", "testdata", "stores", "codex-daemon-0.169.0", ".codex")
	if err := os.CopyFS(filepath.Join(home, ".codex"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	inv, err := inventory.New(context.Background(), nil, inventory.Options{Env: inventory.Env{Home: home, GOOS: "linux"}, Runner: helpRunner{}})
	if err != nil {
		t.Fatal(err)
	}
	display := func(a string) string {
		if a == "codex" {
			return "Codex CLI"
		}
		return a
	}
	b := &Board{}
	b.SetSessions(NewStoreSessions(inv, display))
	restored := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC) // the day after the recording
	s := Summary{Kind: KindTerminal, Title: "Codex CLI", Agent: "Codex CLI", AgentCLI: "codex",
		SessionID: "01a241e2-a695-7270-97bf-65dc95711b6f", Started: restored, Ended: restored.Add(time.Minute)}
	b.agentSession(&s)
	var ran, asked int
	for _, e := range s.Events {
		if e.At.IsZero() || !e.At.Before(restored) {
			t.Errorf("event %+v: want the time the session did it, before the restore", e)
		}
		if strings.HasPrefix(e.Text, "Codex CLI ran ") && strings.Contains(e.Text, "echo osf-") {
			ran++
		}
		if e.Text == "You asked: Run three echo commands" {
			asked++
		}
	}
	md := s.Markdown()
	if ran != 3 || asked != 1 || strings.Contains(md, "Nothing was recorded") {
		t.Fatalf("want the three commands and the question in the summary, got:\n%s", md)
	}
	// Activity after the pane started is the pane's own history, not repeated.
	s2 := Summary{Kind: KindTerminal, AgentCLI: "codex", SessionID: s.SessionID, Started: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	b.agentSession(&s2)
	if len(s2.Events) != 0 {
		t.Fatalf("a session started after the pane added %d earlier events: %+v", len(s2.Events), s2.Events)
	}
}
