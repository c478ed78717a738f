package record

import (
	"path/filepath"
	"regexp"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// Screen texts of GitHub Copilot CLI 1.0 the recorder waits for.
var (
	copilotIdle    = regexp.MustCompile(`/ commands`)
	copilotWorking = regexp.MustCompile(`Working.*esc esc`)
	copilotAsk     = regexp.MustCompile(`(?i)Do you want to|allow this|approve`)
)

// RecordCopilot drives the Copilot CLI TUI, offline with a BYOK provider
// (Chat Completions against the fake server), in manual approval mode.
func RecordCopilot(r *Run, name string) error {
	return recordTUI(r, name, tuiSpec{build: agentenv.NewCopilot, echo: true}, func(t *tui) []step {
		s := t.s
		steps := t.approveTools(approvals{
			prompt: "Create a marker file with the shell, then write hello.txt",
			idle:   copilotIdle, working: copilotWorking,
			run: copilotAsk, write: copilotAsk, answered: copilotAsk,
		},
			fakemodel.Tool("bash", map[string]any{"command": "touch osf-bash.txt && " + MarkerCommand, "description": "Create a marker file"}),
			fakemodel.Tool("create", map[string]any{"path": filepath.Join(t.env.Work, "hello.txt"), "file_text": "hello from copilot\n"}),
			fakemodel.Question("I created hello.txt. Would you like me to add a README as well?"),
		)
		steps = append(steps,
			func() error { return s.WaitGone(copilotAsk, long) },
			func() error { return s.Wait(readmeQuestion, long) },
			func() error { return s.WaitSave(copilotIdle, long, "idle.question") },
		)
		// Copilot interrupts on Esc pressed twice.
		steps = append(steps, t.interrupt(copilotWorking, copilotIdle, t.escTwice(150*time.Millisecond))...)
		steps = append(steps, func() error { return t.typ("/exit") })
		return append(steps, t.exited()...)
	})
}
