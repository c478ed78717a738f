package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panehook"
)

// DefaultAdapter is the ACP agent `osfoundry acp` runs when none is named:
// Claude Code through Zed's adapter (npm @zed-industries/claude-agent-acp).
const DefaultAdapter = "claude-agent-acp"

// Usage is the command line of `osfoundry acp`.
const Usage = "[-- ADAPTER [ARGS...]]   (default adapter: " + DefaultAdapter + ")"

// Main runs the client in the current folder for `osfoundry acp`, reporting
// each protocol step into the pane it runs in (outside a pane it just
// runs). It returns the exit code.
func Main(args []string, in io.Reader, out, errw io.Writer, getenv func(string) string) int {
	argv := []string{DefaultAdapter}
	switch {
	case len(args) == 0:
	case args[0] == "--" && len(args) > 1:
		argv = args[1:]
	default:
		fmt.Fprintf(errw, "osfoundry acp: unexpected %q; usage: osfoundry acp %s\n", args[0], Usage)
		return 2
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(errw, "osfoundry acp: finding the current folder:", err)
		return 1
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	interrupt := make(chan struct{})
	go func() {
		for range sigs {
			interrupt <- struct{}{}
		}
	}()
	err = Run(context.Background(), Options{Argv: argv, Dir: dir, In: in, Out: out, Report: PaneReporter(getenv, errw), Interrupt: interrupt})
	if err != nil {
		fmt.Fprintln(errw, "osfoundry acp:", err)
		return 1
	}
	return 0
}

// PaneReporter posts events into the pane's detection channel. Outside a
// pane it reports nothing; a failure is said once, not per event.
func PaneReporter(getenv func(string) string, errw io.Writer) func(detect.ACPEvent) {
	failed := false
	return func(ev detect.ACPEvent) {
		if failed {
			return
		}
		b, _ := json.Marshal(ev)
		if err := panehook.Send(getenv, "acp", "", b); err != nil {
			failed = true
			if !errors.Is(err, panehook.ErrNotInPane) {
				fmt.Fprintf(errw, "osfoundry acp: the pane's state will not follow this agent: %v\n", err)
			}
		}
	}
}
