package record

import (
	"path/filepath"
	"regexp"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// Screen texts of Claude Code 2.1.x the recorder waits for. They are the
// recorder's own cues, not the product's detection rules.
var (
	claudeIdle        = regexp.MustCompile(`\? for shortcuts`)
	claudeWorking     = regexp.MustCompile(`esc to interrupt`)
	claudeProceed     = regexp.MustCompile(`Do you want to proceed\?`)
	claudeCreate      = regexp.MustCompile(`Do you want to create`)
	claudeEdit        = regexp.MustCompile(`Do you want to make this edit`)
	claudePlanOn      = regexp.MustCompile(`plan mode on`)
	claudeAcceptEdits = regexp.MustCompile(`accept edits on`)
	claudePlanExit    = regexp.MustCompile(`(?i)(exit plan mode|would you like to proceed|Ready to code)`)
	claudeMenu        = regexp.MustCompile(`Enter to select`)
	claudeAnyPrompt   = regexp.MustCompile(`Do you want to|Enter to select|Esc to cancel`)
	claudeMarker      = regexp.MustCompile(`osf-marker-42`)
	claudeInterrupt   = regexp.MustCompile(`Interrupted`)
)

// ClaudeRenderers are the two TUI renderers of Claude Code: the inline one
// (default) and the fullscreen alternate-screen one, which
// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 switches on.
var ClaudeRenderers = []struct {
	Variant string // "" or "-fullscreen", part of the fixture's agent name
	Env     []string
}{
	{"", nil},
	{"-fullscreen", []string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}},
}

// RecordClaude drives one Claude Code TUI through every state and saves
// the fixtures. name is the fixture prefix (agent[-variant]-version).
func RecordClaude(r *Run, name string, extraEnv []string) error {
	// Manual mode: 2.1.328 defaults to auto mode, which approves tool calls
	// itself and never shows the permission prompts this records.
	spec := tuiSpec{build: agentenv.NewClaude, args: []string{"--permission-mode", "default"}, env: extraEnv}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		hello := filepath.Join(t.env.Work, "hello.txt")
		steps := t.approveTools(approvals{
			prompt: "Create a marker file with the shell, then write hello.txt",
			idle:   claudeIdle, working: claudeWorking,
			run: claudeProceed, write: claudeCreate, answered: claudeAnyPrompt,
		},
			fakemodel.ClaudeBash("touch osf-bash.txt && echo osf-marker-$((6*7))", "Create a marker file"),
			fakemodel.ClaudeWrite(hello, "hello from claude\n"),
			fakemodel.ClaudeEdit(hello, "hello from claude", "hello again from claude"),
			fakemodel.Question("I created hello.txt and edited it. Would you like me to add a README as well?"),
		)
		steps = append(steps,
			func() error { return s.WaitSave(claudeEdit, long, "blocked.edit") },
			func() error { return s.Send("\r") },
			func() error { return s.WaitGone(claudeAnyPrompt, long) },
			// A final question in plain text: the agent is idle, not blocked.
			func() error { return s.Wait(readmeQuestion, long) },
			func() error { return s.WaitSave(claudeIdle, long, "idle.question") },
		)
		steps = append(steps, claudePlanAndMenu(t)...)
		return append(steps, claudeInterruptAndExit(t)...)
	})
}

// claudePlanAndMenu: plan mode's exit prompt, then the question menu.
func claudePlanAndMenu(t *tui) []step {
	s := t.s
	steps := []step{
		// shift+tab cycles manual → accept edits → plan → auto.
		func() error { return s.Send("\x1b[Z") },
		func() error { return s.WaitSave(claudeAcceptEdits, long, "idle.accept-edits") },
		func() error { return s.Send("\x1b[Z") },
		func() error { return s.WaitSave(claudePlanOn, long, "idle.plan") },
		func() error {
			t.srv.Push(fakemodel.ClaudeExitPlan("1. Add a README.md with one line.\n2. Done."))
			return s.Type("Plan a README")
		},
		func() error { return s.WaitSave(claudePlanExit, long, "blocked.plan") },
		func() error {
			// Approve the plan, then the model asks with the question menu.
			t.srv.Push(fakemodel.ClaudeAsk("Format", "Which format should the README use?", "Markdown", "Plain text"),
				fakemodel.Text("Noted: Markdown."))
			return s.Send("\r")
		},
	}
	return append(steps, t.answerMenu(claudeMenu, regexp.MustCompile(`Noted: Markdown`))...)
}

// claudeInterruptAndExit: a slow turn interrupted with Esc, then /exit.
func claudeInterruptAndExit(t *tui) []step {
	s := t.s
	steps := []step{func() error { return s.Wait(claudeIdle, long) }}
	steps = append(steps, t.interrupt(claudeWorking, claudeInterrupt, func() error { return s.Send("\x1b") })...)
	steps = append(steps,
		func() error { return s.Send("\x15") }, // clear the restored prompt text
		func() error { time.Sleep(300 * time.Millisecond); return s.Type("/exit") },
	)
	return append(steps, t.exited()...)
}
