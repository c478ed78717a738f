package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// Exit statuses of `osfoundry verify` beyond 0 (signed in) and 2 (usage).
const (
	verifyNeedsSignIn = 1 // also: the check could not run
	verifyUnreachable = 3 // the CLI cannot reach its service: not a sign-in problem
)

func init() {
	c := &Command{
		Name:  "verify",
		Usage: "claude|codex",
		Help: "Check that Claude Code or Codex is signed in (a one-word completion through the run command builder, kept out of the CLI's history; 300 s limit, Ctrl-C cancels). " +
			"Prints the CLI's live status on stderr. Exit 0 signed in, 1 needs sign-in, 3 cannot reach its service.",
		Page: &Page{
			About: "It finds the CLI as a terminal would (your login shell's PATH when started without one), asks it for a one-word " +
				"answer with API keys removed from its environment, and prints ✓ Signed in, Needs sign-in (with how to sign in) " +
				"or Cannot reach the service, with the CLI's version and path.",
			Example: "osfoundry verify claude",
			Docs:    "README.md",
		},
	}
	c.Run = func(env *Env, args []string) int {
		if len(args) != 1 || (args[0] != "claude" && args[0] != "codex") {
			return fail(env, c, "name the CLI to check: claude or codex")
		}
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		defer stop()
		a := agentcli.Agent(args[0])
		r := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.SystemEnv()})
		in := r.Discover(a)
		name := a.Title()
		if ver, err := r.Version(ctx, a); err == nil {
			name += " " + ver
		}
		last := ""
		v, err := r.Verify(ctx, a, agentcli.VerifyOptions{OnStatus: func(line string) {
			if line != last {
				last = line
				fmt.Fprintf(env.Stderr, "%s\n", line)
			}
		}})
		if err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry verify: %v\n", err)
			return verifyNeedsSignIn
		}
		fmt.Fprintf(env.Stdout, "%s (%s, %s)\n", v.Label, name, in.Path)
		if len(in.KeysInEnv) > 0 {
			fmt.Fprintf(env.Stdout, "API key in env: %v (removed from the CLI's environment)\n", in.KeysInEnv)
		}
		switch {
		case v.Unreachable:
			fmt.Fprintln(env.Stdout, v.Detail)
			return verifyUnreachable
		case !v.SignedIn:
			fmt.Fprintln(env.Stdout, v.Detail)
			if a == agentcli.Claude {
				fmt.Fprintln(env.Stdout, "Sign in: run `claude`, type /login, then close it.")
			} else {
				fmt.Fprintln(env.Stdout, "Sign in: run `codex login`.")
			}
			return verifyNeedsSignIn
		}
		return 0
	}
	register(c)
}
