package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panehook"
)

// DefaultAdapter is the ACP agent `osfoundry acp` runs when none is named:
// Claude Code through Zed's adapter (npm @zed-industries/claude-agent-acp).
const DefaultAdapter = "claude-agent-acp"

// Usage is the command line of `osfoundry acp`.
const Usage = "[--model MODEL] [-- ADAPTER [ARGS...]]   (default adapter: " + DefaultAdapter + ")"

// Main runs the client in the current folder for `osfoundry acp`, reporting
// each protocol step into the pane it runs in (outside a pane it just
// runs). It returns the exit code.
func Main(args []string, in io.Reader, out, errw io.Writer, getenv func(string) string) int {
	argv := []string{DefaultAdapter}
	var model string
	for len(args) > 0 && (args[0] == "--model" || strings.HasPrefix(args[0], "--model=")) {
		if v, ok := strings.CutPrefix(args[0], "--model="); ok {
			model, args = v, args[1:]
			continue
		}
		if len(args) < 2 || args[1] == "--" || strings.TrimSpace(args[1]) == "" {
			fmt.Fprintf(errw, "osfoundry acp: --model needs a model id or name, e.g. --model haiku; usage: osfoundry acp %s\n", Usage)
			return 2
		}
		model, args = args[1], args[2:]
	}
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
	err = Run(context.Background(), Options{Argv: argv, Model: model, Dir: dir, In: in, Out: out, Report: PaneReporter(getenv, errw), Interrupt: interrupt})
	if err != nil {
		fmt.Fprintln(errw, "osfoundry acp:", err)
		return 1
	}
	return 0
}

// PaneReporter posts events into the pane's detection channel. Outside a
// pane it reports nothing.
func PaneReporter(getenv func(string) string, errw io.Writer) func(detect.ACPEvent) {
	return paneReporter(func(b []byte) error { return panehook.Send(getenv, "acp", "", b) }, errw, reportRetries)
}

// reportRetries are the pauses before a failed report is sent again.
var reportRetries = []time.Duration{100 * time.Millisecond, 400 * time.Millisecond}

// paneReporter sends each event with send. A report that fails is sent
// again after each pause (the app busy for a moment); one that still fails
// is said once, and the next step is reported all the same: a lost step
// must not leave the pane's state stuck for the rest of the session.
func paneReporter(send func([]byte) error, errw io.Writer, retries []time.Duration) func(detect.ACPEvent) {
	said, off := false, false
	return func(ev detect.ACPEvent) {
		if off {
			return
		}
		b, _ := json.Marshal(ev)
		err := send(b)
		for i := 0; err != nil && !errors.Is(err, panehook.ErrNotInPane) && i < len(retries); i++ {
			time.Sleep(retries[i])
			err = send(b)
		}
		switch {
		case err == nil:
		case errors.Is(err, panehook.ErrNotInPane):
			off = true
		case !said:
			said = true
			fmt.Fprintf(errw, "osfoundry acp: the pane's state may not follow this agent: %v\n", err)
		}
	}
}
