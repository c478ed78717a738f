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
	Page  *Page  // the help page: what it does, flags, an example, where the docs are
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
	return ok || name == "help" || isHelpFlag(name)
}

// TuneGC raises the garbage collector's target unless GOGC is set. The
// app's live Go heap is a few MB; the default target collects every couple
// of MB, which showed up as about half of the bridge's p95 per-call latency
// (osfoundry-bench bridge: allowed-call p95 0.9 ms at GOGC=100, 0.3 ms at
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
	if len(args) == 0 || isHelpFlag(args[0]) || args[0] == "help" && len(args) == 1 {
		usage(env.Stdout)
		return 0
	}
	if args[0] == "help" {
		// osfoundry help CMD [SUB]
		c, ok := commands[args[1]]
		if !ok {
			fmt.Fprintf(env.Stderr, "osfoundry help: unknown command %q; run osfoundry help for the list\n", args[1])
			return 2
		}
		printHelp(env.Stdout, c, args[2:])
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "osfoundry: unknown command %q\n\n", args[0])
		usage(env.Stderr)
		return 2
	}
	if wantsHelp(args[1:]) {
		printHelp(env.Stdout, c, args[1:])
		return 0
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
		fmt.Fprintf(w, "  osfoundry %s %s\n%s\n", c.Name, c.Usage, wrap(c.Help, "      "))
	}
	fmt.Fprintln(w, "\nEach command's page: osfoundry help CMD (or osfoundry CMD --help); man osfoundry-CMD where installed.")
	fmt.Fprintf(w, "Docs: %s\n", docsDir())
}

// fail prints a one-line error with the command's usage and where its
// page is, and returns 2.
func fail(env *Env, c *Command, format string, a ...any) int {
	msg := fmt.Sprintf(format, a...)
	fmt.Fprintf(env.Stderr, "osfoundry %s: %s\nusage: osfoundry %s %s\nrun osfoundry %s --help for its flags and an example\n",
		c.Name, strings.TrimSpace(msg), c.Name, c.Usage, c.Name)
	return 2
}
