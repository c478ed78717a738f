package record

import (
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// Screens people saw a pane stay "Working" on while its agent was idle:
// Claude Code's recap after the terminal lost focus, and a Codex whose
// first turn failed at once (its provider's API key variable unset).

// stuckSuffix marks these jobs' names; like the dialog jobs they record into
// the agent's own fixture set.
const stuckSuffix = "-stuck"

func stuckJobs() []Job {
	return []Job{
		{Name: "claude" + stuckSuffix, Agent: "claude", Record: RecordClaudeRecap},
		{Name: "claude-recap-tool" + stuckSuffix, Agent: "claude", Record: RecordClaudeRecapTool},
		{Name: "codex" + stuckSuffix, Agent: "codex", Record: RecordCodexFailedStart},
	}
}

var (
	// claudeRecap is the away summary Claude Code appends after the terminal
	// was blurred for its delay (180 s in 2.1.328) since the last turn.
	claudeRecap = regexp.MustCompile(`※`)
	codexError  = regexp.MustCompile(`(?i)(missing environment variable|error)`)
)

// RecordClaudeRecap answers three prompts (the recap needs three user
// messages), reports the terminal blurred (focus reporting, CSI O) and
// saves the screen once the recap was printed: the agent is idle.
func RecordClaudeRecap(r *Run, name string) error {
	spec := tuiSpec{build: agentenv.NewClaude, args: []string{"--permission-mode", "default"},
		fixture: stuckFixture(name)}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		t.srv.Push(fakemodel.Text("First answer: osf-one."), fakemodel.Text("Second answer: osf-two."),
			fakemodel.Text("Third answer: osf-three."), fakemodel.Text("You asked three questions; next, pick one to follow up."))
		var steps []step
		for _, q := range []struct{ ask, seen string }{{"Say one", "osf-one"}, {"Say two", "osf-two"}, {"Say three", "osf-three"}} {
			seen := regexp.MustCompile(q.seen)
			steps = append(steps,
				func() error { return s.Wait(claudeIdle, long) },
				func() error { return t.typ(q.ask) },
				func() error { return s.Wait(seen, long) },
			)
		}
		return append(steps,
			func() error { return s.WaitGone(claudeWorking, long) },
			func() error { time.Sleep(time.Second); return s.Send("\x1b[O") },
			func() error { return s.Wait(claudeRecap, 5*time.Minute) },
			func() error { time.Sleep(3 * time.Second); return s.Save("idle.recap") },
		)
	})
}

// RecordClaudeRecapTool is what a person met: the recap's model answer
// asks for a tool as well (the recap subagent is offered the session's
// tools and refused every one). Its PreToolUse hook reports "working"; the
// subagent ends without a Stop hook, and nothing on screen or in OSC 7501
// says working. Recorded with the app's hooks (<fixture>.hooks.jsonl) and
// the recap delay at its 30 s floor; the agent is idle.
func RecordClaudeRecapTool(r *Run, name string) error {
	spec := tuiSpec{build: agentenv.NewClaude, args: []string{"--permission-mode", "default"},
		fixture: strings.Replace(name, "claude-recap-tool"+stuckSuffix+"-", "claude-", 1), hooks: true, setup: shortenClaudeRecap}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		recap := fakemodel.Tool("Read", map[string]any{"file_path": filepath.Join(t.env.Work, "NOTES.md")})
		recap.Text = "You asked three questions; next, pick one to follow up."
		t.srv.Push(fakemodel.Text("First answer: osf-one."), fakemodel.Text("Second answer: osf-two."),
			fakemodel.Text("Third answer: osf-three."), recap)
		var steps []step
		for _, q := range []struct{ ask, seen string }{{"Say one", "osf-one"}, {"Say two", "osf-two"}, {"Say three", "osf-three"}} {
			seen := regexp.MustCompile(q.seen)
			steps = append(steps,
				func() error { return s.Wait(claudeIdle, long) },
				func() error { return t.typ(q.ask) },
				func() error { return s.Wait(seen, long) },
			)
		}
		return append(steps,
			func() error { return s.WaitGone(claudeWorking, long) },
			func() error { time.Sleep(time.Second); return s.Send("\x1b[O") },
			func() error { return s.Wait(claudeRecap, 2*time.Minute) },
			func() error { time.Sleep(3 * time.Second); return s.Save("idle.recap-tool") },
		)
	})
}

// RecordCodexFailedStart starts Codex without its provider's key and sends
// a prompt: the turn fails at once and Codex waits for the next prompt.
func RecordCodexFailedStart(r *Run, name string) error {
	spec := tuiSpec{build: agentenv.NewCodex, args: []string{"--no-daemon", "-s", "read-only"},
		env: []string{"OSF_FAKE_OPENAI_KEY="}, fixture: stuckFixture(name)}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		return []step{
			func() error { return s.Wait(codexIdle, long) },
			func() error { return t.typ("Say hello") },
			func() error { return s.Wait(codexError, long) },
			func() error { time.Sleep(3 * time.Second); return s.Save("idle.failed-start") },
		}
	})
}

// stuckFixture is the fixture prefix of a stuck job's recording:
// "codex-stuck-0.169.0" records codex-0.169.0.idle.failed-start.
func stuckFixture(name string) string {
	return regexp.MustCompile(regexp.QuoteMeta(stuckSuffix)+"-").ReplaceAllLiteralString(name, "-")
}
