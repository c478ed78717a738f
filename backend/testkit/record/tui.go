package record

import (
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// long bounds each wait of a TUI flow: the slowest CLI start or model turn
// (opencode has taken over 30 s to draw its first screen on a busy machine).
const long = 60 * time.Second

// step is one action of a recording flow.
type step = func() error

// readmeQuestion is the plain-text question every TUI flow's scripted turns
// end on: the agent is idle again, not blocked.
var readmeQuestion = regexp.MustCompile(`Would you like me to add a README`)

// tuiSpec says how to start one agent's TUI.
type tuiSpec struct {
	build func(agentenv.Options) (*agentenv.Env, error)
	args  []string // after the binary and the env's own flags
	env   []string // extra environment for the pane
	// echo types with TypeEcho: the TUI drops keys while it finishes starting.
	echo bool
	// untrusted starts the CLI in a work folder it does not trust yet.
	untrusted bool
	// setup prepares the work folder before the CLI starts (e.g. a .mcp.json).
	setup func(env *agentenv.Env) error
	// hooks runs Claude Code with the app's hooks and saves their reports
	// beside each capture (hooks.go).
	hooks bool
	// fixture is the fixture prefix when it is not the recording's name: the
	// first-run dialogs are recorded apart but belong to the agent's set.
	fixture string
}

// tui is one TUI recording in progress: the fake model, the agent's temp
// env and the pane it runs in.
type tui struct {
	srv  *fakemodel.Server
	env  *agentenv.Env
	s    *Session
	echo bool
}

// recordTUI is what every TUI recording does around its own flow: a fake
// model server, the agent in a temp home, its TUI in a pane; then the steps
// flow returns run, and the saved screens and the session store are kept.
func recordTUI(r *Run, name string, spec tuiSpec, flow func(t *tui) []step) error {
	srv, err := fakemodel.New()
	if err != nil {
		return err
	}
	defer srv.Close()
	env, err := spec.build(agentenv.Options{ModelURL: srv.URL, Base: r.tempBase(name), Untrusted: spec.untrusted})
	if err != nil {
		return err
	}
	defer r.cleanup(env)
	if spec.setup != nil {
		if err := spec.setup(env); err != nil {
			return fmt.Errorf("preparing %s: %w", name, err)
		}
	}
	fixture := name
	if spec.fixture != "" {
		fixture = spec.fixture
	}
	args, extraEnv := spec.args, spec.env
	var started atomic.Pointer[Session]
	if spec.hooks {
		hookArgs, hookEnv, closeHooks, err := r.claudeHooks(&started)
		if err != nil {
			return err
		}
		defer closeHooks()
		args = append(append([]string(nil), args...), hookArgs...)
		extraEnv = append(append([]string(nil), extraEnv...), hookEnv...)
	}
	s, err := Start(env, fixture, r.Out, env.Argv(args...), extraEnv...)
	if err != nil {
		return err
	}
	started.Store(s)
	defer s.Close()
	s.Log = r.Log
	if err := runSteps(flow(&tui{srv: srv, env: env, s: s, echo: spec.echo}), srv); err != nil {
		return err
	}
	r.add(s.Saved()...)
	if spec.fixture != "" {
		return nil // a dialog recording's store is the main recording's
	}
	return r.copyStores(name, env)
}

// typ types text and presses Enter, the way this TUI needs.
func (t *tui) typ(text string) error {
	if t.echo {
		return t.s.TypeEcho(text)
	}
	return t.s.Type(text)
}

// approvals are an agent's screens in the opening every TUI flow shares.
type approvals struct {
	prompt        string         // asks for a shell command, then a file write
	idle, working *regexp.Regexp // ready for a prompt; busy with a turn
	run, write    *regexp.Regexp // the approval prompt of each tool call
	answered      *regexp.Regexp // any approval prompt: gone once answered
}

// approveTools scripts shell then write, then rest, and returns the opening
// steps: idle, working, blocked.bash, after-answer and blocked.create, the
// last one answered. Each tool call is held until the recorder has seen the
// agent working, so the working screen and the prompt are saved apart.
func (t *tui) approveTools(a approvals, shell, write fakemodel.Turn, rest ...fakemodel.Turn) []step {
	hold1, hold2 := make(chan struct{}), make(chan struct{})
	shell.Hold, write.Hold = hold1, hold2
	t.srv.Push(append([]fakemodel.Turn{shell, write}, rest...)...)
	s := t.s
	return []step{
		func() error { return s.WaitSave(a.idle, long, "idle") },
		func() error { return t.typ(a.prompt) },
		func() error { return s.WaitSave(a.working, long, "working") },
		func() error { close(hold1); return s.WaitSave(a.run, long, "blocked.bash") },
		func() error { return s.Send("\r") },
		// The next turn is held, so the screen after the answer shows the
		// agent working again, not the next prompt.
		func() error { return s.WaitGone(a.answered, long) },
		func() error { return waitMain(t.srv, 2, long) }, // the command ran, its result went back
		func() error { return s.WaitSave(a.working, long, "after-answer") },
		func() error { close(hold2); return s.WaitSave(a.write, long, "blocked.create") },
		func() error { return s.Send("\r") },
	}
}

// answerMenu picks the first choice of a question menu on screen (saved as
// blocked.question) and waits for the model's answer to it.
func (t *tui) answerMenu(menu, answered *regexp.Regexp) []step {
	s := t.s
	return []step{
		func() error { return s.WaitSave(menu, long, "blocked.question") },
		func() error { return s.Send("\r") },
		func() error { return s.WaitGone(menu, long) },
		func() error { return s.WaitSave(answered, long, "after-answer.question") },
	}
}

// stall sends a prompt the model thinks about for ten minutes: the turn the
// flows interrupt.
func (t *tui) stall() step {
	return func() error {
		t.srv.Push(fakemodel.Stalled("Thinking it over step by step", 10*time.Minute))
		return t.typ("Think about it for a long time")
	}
}

// interrupt sends the stalled prompt, waits for the agent to work on it,
// interrupts it with esc, and saves the screen once working is gone and
// interrupted shows.
func (t *tui) interrupt(working, interrupted *regexp.Regexp, esc step) []step {
	s := t.s
	return []step{
		t.stall(),
		func() error { return s.Wait(working, long) },
		func() error {
			// A key press can be lost while the TUI redraws: press again,
			// as a person would, until the turn says it stopped.
			var err error
			for range 3 {
				if err = esc(); err != nil {
					return err
				}
				if err = s.Wait(interrupted, 10*time.Second); err == nil {
					return nil
				}
			}
			return err
		},
		func() error { return s.WaitGone(working, long) },
		func() error { return s.WaitSave(interrupted, long, "interrupted") },
	}
}

// escTwice presses Esc twice, pause apart: how some TUIs interrupt a turn.
func (t *tui) escTwice(pause time.Duration) step {
	return func() error {
		if err := t.s.Send("\x1b"); err != nil {
			return err
		}
		time.Sleep(pause)
		return t.s.Send("\x1b")
	}
}

// exited waits for the CLI to end and saves its last screen.
func (t *tui) exited() []step {
	return []step{
		func() error { return t.s.WaitExit(long) },
		func() error { return t.s.Save("exited") },
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
func runSteps(steps []step, srv *fakemodel.Server) error {
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
