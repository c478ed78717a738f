package record

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// headlessScenario is one headless run: a script for the fake model and the
// CLI arguments (after the binary) given the env.
type headlessScenario struct {
	name  string
	env   []string // extra environment
	turns func(env *agentenv.Env) []fakemodel.Turn
	args  func(env *agentenv.Env) []string
}

// MarkerCommand's output proves a tool really ran a shell (the shell
// computes 42; the script never contains it).
const MarkerCommand = "echo osf-marker-$((6*7))"

var claudeHeadless = []headlessScenario{
	{"text", nil,
		func(*agentenv.Env) []fakemodel.Turn {
			return []fakemodel.Turn{fakemodel.Text("Hello from the fake model.")}
		},
		func(*agentenv.Env) []string { return ClaudeStreamArgs("Say hello") }},
	{"tools", []string{agentenv.ClaudeBypassAsRoot},
		func(e *agentenv.Env) []fakemodel.Turn {
			return []fakemodel.Turn{
				fakemodel.ClaudeBash(MarkerCommand, "Print a marker"),
				fakemodel.ClaudeWrite(filepath.Join(e.Work, "hello.txt"), "hello from claude\n"),
				fakemodel.Text("All done."),
			}
		},
		func(*agentenv.Env) []string {
			return ClaudeStreamArgs("Print the marker, then write hello.txt", "--permission-mode", "bypassPermissions")
		}},
}

var codexHeadless = []headlessScenario{
	{"text", nil,
		func(*agentenv.Env) []fakemodel.Turn {
			return []fakemodel.Turn{fakemodel.Text("Hello from the fake model.")}
		},
		func(*agentenv.Env) []string { return CodexExecArgs("Say hello") }},
	{"tools", nil,
		func(*agentenv.Env) []fakemodel.Turn {
			return []fakemodel.Turn{
				fakemodel.CodexExec(MarkerCommand),
				fakemodel.CodexAddFile("hello.txt", "hello from codex"),
				fakemodel.Text("All done."),
			}
		},
		func(*agentenv.Env) []string {
			return CodexExecArgs("Print the marker, then write hello.txt", "-s", "workspace-write", "-c", `approval_policy="never"`)
		}},
}

// ClaudeStreamArgs are the headless stream-json flags the app's worker uses.
func ClaudeStreamArgs(prompt string, extra ...string) []string {
	return append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--include-partial-messages"}, extra...)
}

// CodexExecArgs are the headless exec flags the app's worker uses.
func CodexExecArgs(prompt string, extra ...string) []string {
	return append([]string{"exec", prompt, "--json", "--skip-git-repo-check"}, extra...)
}

// RecordClaudeHeadless records `claude -p … --output-format stream-json`.
func RecordClaudeHeadless(r *Run, prefix string) error {
	return recordHeadless(r, prefix, agentenv.NewClaude, claudeHeadless)
}

// RecordCodexHeadless records `codex exec --json`.
func RecordCodexHeadless(r *Run, prefix string) error {
	return recordHeadless(r, prefix, agentenv.NewCodex, codexHeadless)
}

func recordHeadless(r *Run, prefix string, build func(agentenv.Options) (*agentenv.Env, error), scenarios []headlessScenario) error {
	for _, sc := range scenarios {
		name := prefix + "." + sc.name
		srv, err := fakemodel.New()
		if err != nil {
			return err
		}
		env, err := build(agentenv.Options{ModelURL: srv.URL, Base: r.tempBase(name), Extra: sc.env})
		if err != nil {
			srv.Close()
			return err
		}
		srv.Push(sc.turns(env)...)
		err = runHeadless(r, name, env, sc.args(env))
		if err == nil {
			err = r.copyStores(name, env)
		}
		r.cleanup(env)
		srv.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func runHeadless(r *Run, name string, env *agentenv.Env, args []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := env.Command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Stdin = strings.NewReader("")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("running %s %v: %w\nstderr:\n%s", env.Agent, args, err, stderr.Bytes())
	}
	if stdout.Len() == 0 {
		return fmt.Errorf("running %s %v: no output; stderr:\n%s", env.Agent, args, stderr.Bytes())
	}
	return r.WriteFixture(name+".jsonl", stdout.Bytes())
}
