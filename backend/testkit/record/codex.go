package record

import (
	"path/filepath"
	"regexp"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// CodexScreens are Codex's two TUI modes: the alternate screen (default) and
// inline (--no-alt-screen).
var CodexScreens = []struct {
	Variant string
	Args    []string
}{
	{"", nil},
	{"-inline", []string{"--no-alt-screen"}},
}

// Screen texts of Codex 0.169 the recorder waits for.
var (
	codexIdle      = regexp.MustCompile(`\? for shortcuts`)
	codexWorking   = regexp.MustCompile(`esc to interrupt`)
	codexRun       = regexp.MustCompile(`Would you like to run the following command\?`)
	codexEdits     = regexp.MustCompile(`Would you like to make the following edits\?`)
	codexAnyPrompt = regexp.MustCompile(`Would you like to|Press enter to confirm|enter to submit answer`)
	codexPlanOn    = regexp.MustCompile(`Plan mode \(shift\+tab to cycle\)`)
	codexMenu      = regexp.MustCompile(`enter to submit answer`)
	codexAnswered  = regexp.MustCompile(`Noted: Red`)
	codexInterrupt = regexp.MustCompile(`Conversation interrupted`)
)

// RecordCodex drives one Codex TUI through every state and saves the fixtures.
func RecordCodex(r *Run, name string, args []string) error {
	// --no-daemon: no shared app-server left running after the recording.
	spec := tuiSpec{build: agentenv.NewCodex, args: append([]string{"--no-daemon", "-s", "read-only"}, args...)}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		// Read-only sandbox (approvals on request): every edit asks, and a file
		// in HOME is outside the folder, so the prompts are the ones a user sees.
		outside := filepath.Join(t.env.Home, "notes.txt")
		steps := t.approveTools(approvals{
			prompt: "Create a marker file with the shell, then write notes.txt in my home",
			idle:   codexIdle, working: codexWorking,
			run: codexRun, write: codexEdits, answered: codexAnyPrompt,
		},
			fakemodel.CodexEscalated("touch osf-bash.txt && echo osf-marker-$((6*7))", "Create a marker file outside the sandbox"),
			fakemodel.CodexAddFile(outside, "hello from codex"),
			fakemodel.CodexPatch("*** Begin Patch\n*** Update File: "+outside+"\n@@\n-hello from codex\n+hello again from codex\n*** End Patch\n"),
			fakemodel.Question("I created notes.txt and edited it. Would you like me to add a README as well?"),
		)
		steps = append(steps,
			func() error { return s.WaitGone(codexAnyPrompt, long) },
			func() error { return waitMain(t.srv, 3, long) },
			func() error { return s.WaitSave(codexEdits, long, "blocked.edit") },
			func() error { return s.Send("\r") },
			func() error { return s.WaitGone(codexAnyPrompt, long) },
			func() error { return waitMain(t.srv, 4, long) },
			func() error { return s.Wait(readmeQuestion, long) },
			func() error { return s.WaitSave(codexIdle, long, "idle.question") },
			// request_user_input works in Plan mode only (shift+tab).
			func() error { return s.Send("\x1b[Z") },
			func() error { return s.WaitSave(codexPlanOn, long, "idle.plan") },
			func() error {
				t.srv.Push(fakemodel.CodexAsk("Color", "Which color should the README use?", "Red", "Blue"),
					fakemodel.Text("Noted: Red."))
				return s.Type("Ask me about the README")
			},
		)
		steps = append(steps, t.answerMenu(codexMenu, codexAnswered)...)
		steps = append(steps,
			func() error { return s.Wait(codexIdle, long) },
			t.stall(),
			// While the answer streams, Codex hides its status line: the agent
			// works with no "esc to interrupt" on screen.
			func() error {
				return s.WaitSave(regexp.MustCompile(`Thinking it over step by step`), long, "working.streaming")
			},
			func() error { return s.Send("\x1b") },
			func() error { return s.WaitSave(codexInterrupt, long, "interrupted") },
			func() error { return s.Type("/quit") },
		)
		return append(steps, t.exited()...)
	})
}
