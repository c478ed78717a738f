package record

import (
	"path/filepath"
	"regexp"
	"time"

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
	codexQuestion  = regexp.MustCompile(`Would you like me to add a README`)
	codexPlanOn    = regexp.MustCompile(`Plan mode \(shift\+tab to cycle\)`)
	codexMenu      = regexp.MustCompile(`enter to submit answer`)
	codexAnswered  = regexp.MustCompile(`Noted: Red`)
	codexInterrupt = regexp.MustCompile(`Conversation interrupted`)
)

// RecordCodex drives one Codex TUI through every state and saves the fixtures.
func RecordCodex(r *Run, name string, args []string) error {
	srv, err := fakemodel.New()
	if err != nil {
		return err
	}
	defer srv.Close()
	env, err := agentenv.NewCodex(agentenv.Options{ModelURL: srv.URL, Base: r.tempBase(name)})
	if err != nil {
		return err
	}
	defer r.cleanup(env)
	// --no-daemon: no shared app-server left running after the recording.
	s, err := Start(env, name, r.Out, env.Argv(append([]string{"--no-daemon", "-s", "read-only"}, args...)...))
	if err != nil {
		return err
	}
	defer s.Close()
	s.Log = r.Log
	const long = 30 * time.Second
	// Read-only sandbox (approvals on request): every edit asks, and a file
	// in HOME is outside the folder, so the prompts are the ones a user sees.
	outside := filepath.Join(env.Home, "notes.txt")

	hold1, hold2 := make(chan struct{}), make(chan struct{})
	run := fakemodel.CodexEscalated("touch osf-bash.txt && echo osf-marker-$((6*7))", "Create a marker file outside the sandbox")
	run.Hold = hold1
	add := fakemodel.CodexAddFile(outside, "hello from codex")
	add.Hold = hold2
	srv.Push(run, add,
		fakemodel.CodexPatch("*** Begin Patch\n*** Update File: "+outside+"\n@@\n-hello from codex\n+hello again from codex\n*** End Patch\n"),
		fakemodel.Question("I created notes.txt and edited it. Would you like me to add a README as well?"),
	)
	steps := []func() error{
		func() error { return s.WaitSave(codexIdle, long, "idle") },
		func() error { return s.Type("Create a marker file with the shell, then write notes.txt in my home") },
		func() error { return s.WaitSave(codexWorking, long, "working") },
		func() error { close(hold1); return s.WaitSave(codexRun, long, "blocked.bash") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(codexAnyPrompt, long) },
		func() error { return waitMain(srv, 2, long) },
		func() error { return s.WaitSave(codexWorking, long, "after-answer") },
		func() error { close(hold2); return s.WaitSave(codexEdits, long, "blocked.create") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(codexAnyPrompt, long) },
		func() error { return waitMain(srv, 3, long) },
		func() error { return s.WaitSave(codexEdits, long, "blocked.edit") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(codexAnyPrompt, long) },
		func() error { return waitMain(srv, 4, long) },
		func() error { return s.Wait(codexQuestion, long) },
		func() error { return s.WaitSave(codexIdle, long, "idle.question") },
		// request_user_input works in Plan mode only (shift+tab).
		func() error { return s.Send("\x1b[Z") },
		func() error { return s.WaitSave(codexPlanOn, long, "idle.plan") },
		func() error {
			srv.Push(fakemodel.CodexAsk("Color", "Which color should the README use?", "Red", "Blue"),
				fakemodel.Text("Noted: Red."))
			return s.Type("Ask me about the README")
		},
		func() error { return s.WaitSave(codexMenu, long, "blocked.question") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(codexMenu, long) },
		func() error { return s.WaitSave(codexAnswered, long, "after-answer.question") },
		func() error { return s.Wait(codexIdle, long) },
		func() error {
			srv.Push(fakemodel.Stalled("Thinking it over step by step", 10*time.Minute))
			return s.Type("Think about it for a long time")
		},
		// While the answer streams, Codex hides its status line: the agent
		// works with no "esc to interrupt" on screen.
		func() error {
			return s.WaitSave(regexp.MustCompile(`Thinking it over step by step`), long, "working.streaming")
		},
		func() error { return s.Send("\x1b") },
		func() error { return s.WaitSave(codexInterrupt, long, "interrupted") },
		func() error { return s.Type("/quit") },
		func() error { return s.WaitExit(long) },
		func() error { return s.Save("exited") },
	}
	if err := runSteps(steps, srv); err != nil {
		return err
	}
	r.add(s.Saved()...)
	return r.copyStores(name, env)
}
