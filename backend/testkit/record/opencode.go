package record

import (
	"path/filepath"
	"regexp"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// Screen texts of opencode 1.18 the recorder waits for.
var (
	opencodeIdle    = regexp.MustCompile(`ctrl\+p commands`)
	opencodeWorking = regexp.MustCompile(`esc interrupt`)
	opencodeAsk     = regexp.MustCompile(`(?i)permission required|allow once`)
)

// RecordOpencode drives opencode's TUI (Chat Completions against the fake
// server), with permissions set to ask for shell commands and edits.
func RecordOpencode(r *Run, name string) error {
	return recordTUI(r, name, tuiSpec{build: agentenv.NewOpencodeAsking, echo: true}, func(t *tui) []step {
		s := t.s
		steps := t.approveTools(approvals{
			prompt: "Print a marker with the shell, then write hello.txt",
			idle:   regexp.MustCompile(`Ask anything`), working: opencodeWorking,
			run: opencodeAsk, write: opencodeAsk, answered: opencodeAsk,
		},
			fakemodel.Tool("bash", map[string]any{"command": MarkerCommand, "description": "Print a marker"}),
			fakemodel.Tool("write", map[string]any{"filePath": filepath.Join(t.env.Work, "hello.txt"), "content": "hello from opencode\n"}),
			fakemodel.Question("I created hello.txt. Would you like me to add a README as well?"),
		)
		steps = append(steps,
			func() error { return s.WaitGone(opencodeAsk, long) },
			func() error { return s.Wait(readmeQuestion, long) },
			func() error { return s.WaitGone(opencodeWorking, long) },
			func() error { return s.WaitSave(opencodeIdle, long, "idle.question") },
		)
		// opencode interrupts on a second Esc.
		steps = append(steps, t.interrupt(opencodeWorking, opencodeIdle, t.escTwice(200*time.Millisecond))...)
		steps = append(steps, func() error { return s.Send("\x03") })
		return append(steps, t.exited()...)
	})
}
