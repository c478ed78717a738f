package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/osfoundry/desktop/backend/agentcli"
)

func init() {
	c := &Command{
		Name:  "verify",
		Usage: "claude|codex",
		Help:  "Check that Claude Code or Codex is signed in (a one-word completion through the run command builder, 300 s limit).",
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
		v, err := r.Verify(ctx, a, agentcli.VerifyLimit)
		if err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry verify: %v\n", err)
			return 1
		}
		fmt.Fprintf(env.Stdout, "%s (%s, %s)\n", v.Label, a.Title(), in.Path)
		if len(in.KeysInEnv) > 0 {
			fmt.Fprintf(env.Stdout, "API key in env: %v (removed from the CLI's environment)\n", in.KeysInEnv)
		}
		if !v.SignedIn {
			fmt.Fprintln(env.Stdout, v.Detail)
			if a == agentcli.Claude {
				fmt.Fprintln(env.Stdout, "Sign in: run `claude`, type /login, then close it.")
			} else {
				fmt.Fprintln(env.Stdout, "Sign in: run `codex login`.")
			}
			return 1
		}
		return 0
	}
	register(c)
}
