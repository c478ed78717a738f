package board

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/inventory"
)

// fakeSessions is the agents' own session stores, scripted.
// The board asks from its own goroutines while a test adds sessions.
type fakeSessions struct {
	mu     sync.Mutex
	latest map[string]AgentSession // agent+"|"+dir
	plans  map[string]ResumePlan   // agent+"|"+id
	since  time.Time               // what Latest was asked
}

func (f *fakeSessions) Latest(agent, dir string, since time.Time) (AgentSession, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.since = since
	s, ok := f.latest[agent+"|"+dir]
	return s, ok
}

// add makes s the latest session of agent in dir.
func (f *fakeSessions) add(agent, dir string, s AgentSession) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.latest[agent+"|"+dir] = s
}

func (f *fakeSessions) Plan(agent, id string) (ResumePlan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.plans[agent+"|"+id]; ok {
		return p, nil
	}
	return ResumePlan{}, errors.New("no such session")
}

// The summary of an ended terminal session names the agent's own session
// (found in its store by folder and time) and the exact command that
// resumes it there.
func TestSummaryNamesTheAgentSessionAndItsResumeCommand(t *testing.T) {
	kn := t.TempDir()
	b := New(kn, nil)
	sessions := &fakeSessions{
		latest: map[string]AgentSession{"claude|/src/shop api": {ID: "4f1c9a2e-7d7b-4c1e-9f3a-0b6a1d2c3e4f", Title: "fix the login bug"}},
		plans: map[string]ResumePlan{"claude|4f1c9a2e-7d7b-4c1e-9f3a-0b6a1d2c3e4f": {Folder: "/src/shop api",
			Argv: []string{"claude", "--resume", "4f1c9a2e-7d7b-4c1e-9f3a-0b6a1d2c3e4f"}}},
	}
	b.SetSessions(sessions)
	src := newFake(Idle)
	src.dir, src.agent = "/src/shop api", "claude"
	b.Add("terminal", src)
	path, err := b.End("terminal/p-1")
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{
		"- Agent session: `4f1c9a2e-7d7b-4c1e-9f3a-0b6a1d2c3e4f` (the newest Claude Code session in this folder while it ran)",
		"- Resume: `cd '/src/shop api' && claude --resume 4f1c9a2e-7d7b-4c1e-9f3a-0b6a1d2c3e4f`",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	sessions.mu.Lock()
	since := sessions.since
	sessions.mu.Unlock()
	if !since.Equal(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("looked for sessions since %v, want the session's start", since)
	}
}

// When the agent's session cannot be found the summary says so instead of
// leaving the reader to guess.
func TestSummarySaysWhenNoAgentSessionIsKnown(t *testing.T) {
	b := New(t.TempDir(), nil)
	b.SetSessions(&fakeSessions{})
	src := newFake(Idle)
	src.dir, src.agent = "/src/shop-api", "claude"
	b.Add("terminal", src)
	path, err := b.End("terminal/p-1")
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(path)
	if !strings.Contains(string(md), "- Agent session: not found in Claude Code's own session files") {
		t.Errorf("summary:\n%s", md)
	}
}

func TestResumeCommandQuotesWhatTheShellWouldSplit(t *testing.T) {
	tests := []struct {
		name string
		plan ResumePlan
		want string
	}{
		{"plain", ResumePlan{Folder: "/src/shop-api", Argv: []string{"codex", "resume", "0199a"}}, "cd /src/shop-api && codex resume 0199a"},
		{"space and quote", ResumePlan{Folder: "/src/it's mine", Argv: []string{"claude", "--resume", "x"}}, `cd '/src/it'\''s mine' && claude --resume x`},
		{"strict mode value", ResumePlan{Folder: "/a", Argv: []string{"codex", "resume", "id", "-c", "approval_policy=\"on-request\""}}, `cd /a && codex resume id -c 'approval_policy="on-request"'`},
		{"no folder", ResumePlan{Argv: []string{"claude", "--resume", "x"}}, "claude --resume x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.plan.Command(); got != tt.want {
				t.Errorf("Command() = %s, want %s", got, tt.want)
			}
		})
	}
}

// The store search takes the newest session of that folder used while the
// pane ran: not another folder's, not one last used before the pane started.
func TestLatestInPicksTheFoldersSessionUsedSince(t *testing.T) {
	since := time.UnixMilli(10_000)
	list := []inventory.Session{
		{ID: "old", ResumeID: "old", Folder: "/src/shop", UpdatedMs: 9_000},
		{ID: "other", ResumeID: "other", Folder: "/src/web", UpdatedMs: 30_000},
		{ID: "a", ResumeID: "a", Folder: "/src/shop/", UpdatedMs: 12_000, Title: "first"},
		{ID: "b", ResumeID: "b", Folder: "/src/shop", UpdatedMs: 15_000, Title: "second"},
		{ID: "gone", ResumeID: "gone", Folder: "/src/shop", UpdatedMs: 40_000, Archived: true},
	}
	got, ok := latestIn(list, "/src/shop", since)
	if !ok || got.ID != "b" || got.Title != "second" {
		t.Errorf("latestIn = %+v, %v; want b", got, ok)
	}
	if _, ok := latestIn(list, "/src/none", since); ok {
		t.Error("found a session for a folder that has none")
	}
}
