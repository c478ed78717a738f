package board

import (
	"strings"
	"testing"
	"time"
)

// Two Claude Code panes both titled "Claude Code" by the CLI: each card is
// named by its first prompt, or by its folder before there is one.
func TestTerminalCardsAreNamedByFirstPromptOrFolder(t *testing.T) {
	r := newTerminalRig(t)
	sessions := &fakeSessions{latest: map[string]AgentSession{}}
	term := NewTerminal(r.mgr, r.w, r.b.Changed)
	term.SetSessions(sessions)
	r.b.Add("terminal", term)
	a, _, keyA := r.promptPane(t, "shop-api", "0")
	b, _, keyB := r.promptPane(t, "shop-web", "0")
	r.em.waitColumn(t, keyA, Idle, time.Time{})
	r.em.waitColumn(t, keyB, Idle, time.Time{})
	sessions.add("claude", a.Dir, AgentSession{ID: "s-a", Title: "Fix the double charge on checkout retry\nand add a test"})
	// The agent is recognised from the screen a moment after the pane starts.
	titles := map[string]string{}
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		for _, c := range r.b.Cards() {
			titles[c.Key] = c.Title
		}
		if titles[keyB] == "Claude Code in shop-web" && !strings.HasPrefix(titles[keyA], "bash ") {
			break
		}
	}
	if titles[keyA] != "Fix the double charge on checkout retry and add a test" {
		t.Errorf("card with a first prompt is titled %q", titles[keyA])
	}
	if titles[keyB] != "Claude Code in shop-web" {
		t.Errorf("card without a prompt yet is titled %q", titles[keyB])
	}
	_ = b
}

func TestNoTwoCardsShareATitle(t *testing.T) {
	cards := []Card{
		{Key: "t/1", Title: "Claude Code in shop", Folder: "shop", StartedAt: 1},
		{Key: "t/2", Title: "Claude Code in shop", Folder: "shop", StartedAt: 2},
		{Key: "p/1", Title: "Release helper", Folder: "shop-api", StartedAt: 3},
		{Key: "p/2", Title: "Release helper", Folder: "shop-web", StartedAt: 4},
		{Key: "p/3", Title: "Only one", Folder: "x"},
	}
	distinctTitles(cards)
	want := []string{"Claude Code in shop (1)", "Claude Code in shop (2)", "Release helper · shop-api", "Release helper · shop-web", "Only one"}
	for i, c := range cards {
		if c.Title != want[i] {
			t.Errorf("card %s: %q, want %q", c.Key, c.Title, want[i])
		}
	}
}
