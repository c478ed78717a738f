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
	srv, err := fakemodel.New()
	if err != nil {
		return err
	}
	defer srv.Close()
	env, err := agentenv.NewOpencodeAsking(agentenv.Options{ModelURL: srv.URL, Base: r.tempBase(name)})
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
	bash := fakemodel.Tool("bash", map[string]any{"command": MarkerCommand, "description": "Print a marker"})
	bash.Hold = hold1
	write := fakemodel.Tool("write", map[string]any{"filePath": filepath.Join(env.Work, "hello.txt"), "content": "hello from opencode\n"})
	write.Hold = hold2
	srv.Push(bash, write,
		fakemodel.Question("I created hello.txt. Would you like me to add a README as well?"))
	steps := []func() error{
		func() error { return s.WaitSave(regexp.MustCompile(`Ask anything`), long, "idle") },
		func() error { return s.TypeEcho("Print a marker with the shell, then write hello.txt") },
		func() error { return s.WaitSave(opencodeWorking, long, "working") },
		func() error { close(hold1); return s.WaitSave(opencodeAsk, long, "blocked.bash") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(opencodeAsk, long) },
		func() error { return waitMain(srv, 2, long) },
		func() error { return s.WaitSave(opencodeWorking, long, "after-answer") },
		func() error { close(hold2); return s.WaitSave(opencodeAsk, long, "blocked.create") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(opencodeAsk, long) },
		func() error { return s.Wait(regexp.MustCompile(`Would you like me to add a README`), long) },
		func() error { return s.WaitGone(opencodeWorking, long) },
		func() error { return s.WaitSave(opencodeIdle, long, "idle.question") },
		func() error {
			srv.Push(fakemodel.Stalled("Thinking it over step by step", 10*time.Minute))
			return s.TypeEcho("Think about it for a long time")
		},
		func() error { return s.Wait(opencodeWorking, long) },
		// opencode interrupts on a second Esc.
		func() error { return s.Send("\x1b") },
		func() error { time.Sleep(200 * time.Millisecond); return s.Send("\x1b") },
		func() error { return s.WaitGone(opencodeWorking, long) },
		func() error { return s.WaitSave(opencodeIdle, long, "interrupted") },
		func() error { return s.Send("\x03") },
		func() error { return s.WaitExit(long) },
		func() error { return s.Save("exited") },
	}
	if err := runSteps(steps, srv); err != nil {
		return err
	}
	r.add(s.Saved()...)
	return r.copyStores(name, env)
}
