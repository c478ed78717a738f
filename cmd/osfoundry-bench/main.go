// Command osfoundry-bench measures osFoundry and prints each figure beside
// the reference figure it must beat (`osfoundry-bench NAME [flags]`).
// Speed targets live here, never in unit tests. It is a command of its own
// so that the benches and the test drivers they use (fake models, consent
// page drivers, generated corpora) never ship in the app or in the
// `osfoundry` command line; `make vet` checks that they do not.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/osfoundry/desktop/backend/cli"
)

// Env is what a bench may touch: its streams.
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
}

// A bench prints a table of measured figures beside the reference figures
// the product must beat.
type bench struct {
	name string
	help string
	run  func(env *Env, args []string) int
}

var benches = map[string]*bench{}

func registerBench(b *bench) {
	if _, dup := benches[b.name]; dup {
		panic("osfoundry-bench: duplicate bench " + b.name)
	}
	benches[b.name] = b
}

func main() {
	cli.TuneGC()
	os.Exit(Run(&Env{Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:]))
}

// Run runs the bench named by args[0] and returns the exit code.
func Run(env *Env, args []string) int {
	names := make([]string, 0, len(benches))
	for n := range benches {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stderr, "usage: osfoundry-bench NAME [flags]")
		for _, n := range names {
			fmt.Fprintf(env.Stderr, "  %-12s %s\n", n, benches[n].help)
		}
		return 2
	}
	b, ok := benches[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "osfoundry-bench: unknown benchmark %q; known: %s\n", args[0], strings.Join(names, ", "))
		return 2
	}
	return b.run(env, args[1:])
}

// printTable prints rows as an aligned text table (cells made safe for a
// terminal, as a cell may come from a file).
func printTable(env *Env, header []string, rows [][]string) {
	cli.PrintTable(env.Stdout, header, rows)
}
