package record

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
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
	claudeQuestion    = regexp.MustCompile(`Would you like me to add a README`)
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
	srv, err := fakemodel.New()
	if err != nil {
		return err
	}
	defer srv.Close()
	env, err := agentenv.NewClaude(agentenv.Options{ModelURL: srv.URL, Base: r.tempBase(name)})
	if err != nil {
		return err
	}
	defer r.cleanup(env)
	// Manual mode: 2.1.328 defaults to auto mode, which approves tool calls
	// itself and never shows the permission prompts this records.
	s, err := Start(env, name, r.Out, env.Argv("--permission-mode", "default"), extraEnv...)
	if err != nil {
		return err
	}
	defer s.Close()
	s.Log = r.Log
	const long = 30 * time.Second
	hello := filepath.Join(env.Work, "hello.txt")

	hold1, hold2 := make(chan struct{}), make(chan struct{})
	bash := fakemodel.ClaudeBash("touch osf-bash.txt && echo osf-marker-$((6*7))", "Create a marker file")
	bash.Hold = hold1
	write := fakemodel.ClaudeWrite(hello, "hello from claude\n")
	write.Hold = hold2
	srv.Push(bash, write,
		fakemodel.ClaudeEdit(hello, "hello from claude", "hello again from claude"),
		fakemodel.Question("I created hello.txt and edited it. Would you like me to add a README as well?"),
	)
	steps := []func() error{
		func() error { return s.WaitSave(claudeIdle, long, "idle") },
		func() error { return s.Type("Create a marker file with the shell, then write hello.txt") },
		func() error { return s.WaitSave(claudeWorking, long, "working") },
		func() error { close(hold1); return s.WaitSave(claudeProceed, long, "blocked.bash") },
		func() error { return s.Send("\r") },
		// The next turn is held, so the screen after the answer shows the
		// agent working again, not the next prompt.
		func() error { return s.WaitGone(claudeAnyPrompt, long) },
		func() error { return waitMain(srv, 2, long) }, // the command ran, its result went back
		func() error { return s.WaitSave(claudeWorking, long, "after-answer") },
		func() error { close(hold2); return s.WaitSave(claudeCreate, long, "blocked.create") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitSave(claudeEdit, long, "blocked.edit") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(claudeAnyPrompt, long) },
		// A final question in plain text: the agent is idle, not blocked.
		func() error { return s.Wait(claudeQuestion, long) },
		func() error { return s.WaitSave(claudeIdle, long, "idle.question") },
	}
	steps = append(steps, claudePlanAndMenu(s, srv, long)...)
	steps = append(steps, claudeInterruptAndExit(s, srv, long)...)
	if err := runSteps(steps, srv); err != nil {
		return err
	}
	r.add(s.Saved()...)
	return r.copyStores(name, env)
}

// claudePlanAndMenu: plan mode's exit prompt, then the question menu.
func claudePlanAndMenu(s *Session, srv *fakemodel.Server, long time.Duration) []func() error {
	return []func() error{
		// shift+tab cycles manual → accept edits → plan → auto.
		func() error { return s.Send("\x1b[Z") },
		func() error { return s.WaitSave(claudeAcceptEdits, long, "idle.accept-edits") },
		func() error { return s.Send("\x1b[Z") },
		func() error { return s.WaitSave(claudePlanOn, long, "idle.plan") },
		func() error {
			srv.Push(fakemodel.ClaudeExitPlan("1. Add a README.md with one line.\n2. Done."))
			return s.Type("Plan a README")
		},
		func() error { return s.WaitSave(claudePlanExit, long, "blocked.plan") },
		func() error {
			// Approve the plan, then the model asks with the question menu.
			srv.Push(fakemodel.ClaudeAsk("Format", "Which format should the README use?", "Markdown", "Plain text"),
				fakemodel.Text("Noted: Markdown."))
			return s.Send("\r")
		},
		func() error { return s.WaitSave(claudeMenu, long, "blocked.question") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(claudeMenu, long) },
		func() error { return s.WaitSave(regexp.MustCompile(`Noted: Markdown`), long, "after-answer.question") },
	}
}

// claudeInterruptAndExit: a slow turn interrupted with Esc, then /exit.
func claudeInterruptAndExit(s *Session, srv *fakemodel.Server, long time.Duration) []func() error {
	return []func() error{
		func() error { return s.Wait(claudeIdle, long) },
		func() error {
			srv.Push(fakemodel.Stalled("Thinking it over step by step", 10*time.Minute))
			return s.Type("Think about it for a long time")
		},
		func() error { return s.Wait(claudeWorking, long) },
		func() error { return s.Send("\x1b") },
		func() error { return s.WaitGone(claudeWorking, long) },
		func() error { return s.WaitSave(claudeInterrupt, long, "interrupted") },
		func() error { return s.Send("\x15") }, // clear the restored prompt text
		func() error { time.Sleep(300 * time.Millisecond); return s.Type("/exit") },
		func() error { return s.WaitExit(long) },
		func() error { return s.Save("exited") },
	}
}

// waitMain waits until the CLI sent its n-th conversation request.
func waitMain(srv *fakemodel.Server, n int, timeout time.Duration) error {
	if !srv.WaitMain(n, timeout) {
		return fmt.Errorf("the CLI sent %d model requests in %s, want %d", len(srv.MainRequests()), timeout, n)
	}
	return nil
}

// runSteps runs a flow; a failure carries what the CLI asked the model, which
// is usually why a scripted answer landed somewhere unexpected.
func runSteps(steps []func() error, srv *fakemodel.Server) error {
	for _, step := range steps {
		if err := step(); err != nil {
			var b strings.Builder
			for _, r := range srv.Requests() {
				b.WriteString("\n  " + r.Summary())
			}
			return fmt.Errorf("%w\nmodel requests:%s", err, b.String())
		}
	}
	return nil
}
