package panetools

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/panewait"
)

// Live: runtime_send's text and Enter, typed into the real Claude Code's
// prompt (build/agents, against the fake model), reach the model as one
// message. Typed in one write, this message stays in Claude Code's prompt
// unsent (a burst this long is read as a paste, its Enter a new line in
// it); a shorter one of 48 plain characters went through.
func TestLiveSendSubmitsToClaudeCode(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL) // skips without the pinned Claude Code
	m := terminal.NewManager(nil)
	t.Cleanup(m.CloseAll)
	info, err := m.Create(terminal.Options{Dir: e.Work, Argv: e.Argv(), Env: e.Env, Cols: 120, Rows: 32})
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Get(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	panewait.Screen(t, p, regexp.MustCompile(`\? for shortcuts|\(shift\+tab to cycle\)`))
	panes, err := New(m, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	srv.Push(fakemodel.Text("Heard you."))
	const msg = "Review comments on osf/later — please address each: (1) menu.md:3 — Cake only on Fridays."
	if err := panes.Send(info.ID, msg, true); err != nil {
		t.Fatal(err)
	}
	if !srv.WaitMain(1, 45*time.Second) {
		t.Fatalf("Claude Code sent nothing to the model:\n%s", strings.Join(p.Screen().Lines, "\n"))
	}
	if r := srv.MainRequests()[0]; !strings.Contains(string(r.Body), msg) {
		t.Fatalf("the request does not carry the message: %s", r.Summary())
	}
}
