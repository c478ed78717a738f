// Package cli is the headless command line of the osfoundry binary:
// `osfoundry <command> [flags]` runs without a window. Each command lives in
// its own file and registers itself in commands.
package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/osfoundry/desktop/backend/shellenv"
)

// Command is one headless subcommand.
type Command struct {
	Name  string
	Usage string // one line: arguments and flags
	Help  string // one sentence
	Run   func(env *Env, args []string) int
}

// Env is what a command may touch: its streams. Commands never call
// os.Exit themselves so they stay testable.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

var commands = map[string]*Command{}

func register(c *Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// Has reports whether name is a headless subcommand (main.go uses it to
// decide between the command line and the window).
func Has(name string) bool {
	_, ok := commands[name]
	return ok || name == "help" || name == "-h" || name == "--help"
}

// TuneGC raises the garbage collector's target unless GOGC is set. The
// app's live Go heap is a few MB; the default target collects every couple
// of MB, which showed up as about half of the bridge's p95 per-call latency
// (osfoundry bench bridge: allowed-call p95 0.9 ms at GOGC=100, 0.3 ms at
// 400). A larger target costs a few MB of heap.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

// Main runs the command named by args[0] and returns the exit code.
func Main(args []string) int {
	TuneGC()
	// Started with no usable PATH (`env -i`, a launchd job): read the login
	// shell's first, so `verify claude` finds what a terminal would. With a
	// PATH set (every hook call from a pane) no shell is started.
	if r := shellenv.Ensure(shellenv.Options{}); r.Error != "" {
		fmt.Fprintln(os.Stderr, "osfoundry:", r.Error)
	}
	env := &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	return Run(env, args)
}

// Run dispatches args on env.
func Run(env *Env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(env.Stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "osfoundry: unknown command %q\n\n", args[0])
		usage(env.Stderr)
		return 2
	}
	return c.Run(env, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "osfoundry — run with no arguments to open the app window.")
	fmt.Fprintln(w, "\nHeadless commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  osfoundry %s %s\n      %s\n", c.Name, c.Usage, c.Help)
	}
}

// fail prints a one-line error with the command's usage and returns 2.
func fail(env *Env, c *Command, format string, a ...any) int {
	msg := fmt.Sprintf(format, a...)
	fmt.Fprintf(env.Stderr, "osfoundry %s: %s\nusage: osfoundry %s %s\n", c.Name, strings.TrimSpace(msg), c.Name, c.Usage)
	return 2
}
