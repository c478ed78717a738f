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
	srv, err := fakemodel.New()
	if err != nil {
		return err
	}
	defer srv.Close()
	env, err := agentenv.NewCopilot(agentenv.Options{ModelURL: srv.URL, Base: r.tempBase(name)})
	if err != nil {
		return err
	}
	defer r.cleanup(env)
	s, err := Start(env, name, r.Out, env.Argv())
	if err != nil {
		return err
	}
	defer s.Close()
	s.Log = r.Log
	const long = 30 * time.Second

	hold1, hold2 := make(chan struct{}), make(chan struct{})
	bash := fakemodel.Tool("bash", map[string]any{"command": "touch osf-bash.txt && " + MarkerCommand, "description": "Create a marker file"})
	bash.Hold = hold1
	create := fakemodel.Tool("create", map[string]any{"path": filepath.Join(env.Work, "hello.txt"), "file_text": "hello from copilot\n"})
	create.Hold = hold2
	srv.Push(bash, create,
		fakemodel.Question("I created hello.txt. Would you like me to add a README as well?"))
	steps := []func() error{
		func() error { return s.WaitSave(copilotIdle, long, "idle") },
		func() error { return s.TypeEcho("Create a marker file with the shell, then write hello.txt") },
		func() error { return s.WaitSave(copilotWorking, long, "working") },
		func() error { close(hold1); return s.WaitSave(copilotAsk, long, "blocked.bash") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(copilotAsk, long) },
		func() error { return waitMain(srv, 2, long) },
		func() error { return s.WaitSave(copilotWorking, long, "after-answer") },
		func() error { close(hold2); return s.WaitSave(copilotAsk, long, "blocked.create") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(copilotAsk, long) },
		func() error { return s.Wait(regexp.MustCompile(`Would you like me to add a README`), long) },
		func() error { return s.WaitSave(copilotIdle, long, "idle.question") },
		func() error {
			srv.Push(fakemodel.Stalled("Thinking it over step by step", 10*time.Minute))
			return s.TypeEcho("Think about it for a long time")
		},
		func() error { return s.Wait(copilotWorking, long) },
		// Copilot interrupts on Esc pressed twice.
		func() error { return s.Send("\x1b") },
		func() error { time.Sleep(150 * time.Millisecond); return s.Send("\x1b") },
		func() error { return s.WaitGone(copilotWorking, long) },
		func() error { return s.WaitSave(copilotIdle, long, "interrupted") },
		func() error { return s.TypeEcho("/exit") },
		func() error { return s.WaitExit(long) },
		func() error { return s.Save("exited") },
	}
	if err := runSteps(steps, srv); err != nil {
		return err
	}
	r.add(s.Saved()...)
	return r.copyStores(name, env)
}
