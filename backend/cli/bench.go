package cli

import (
	"fmt"
	"sort"
	"strings"
)

// A bench prints a table of measured figures beside the reference figures
// the product must beat. Speed targets live here, never in unit tests.
type bench struct {
	name string
	help string
	run  func(env *Env, args []string) int
}

var benches = map[string]*bench{}

func registerBench(b *bench) {
	if _, dup := benches[b.name]; dup {
		panic("cli: duplicate bench " + b.name)
	}
	benches[b.name] = b
}

func init() {
	c := &Command{Name: "bench", Usage: "NAME [flags]", Help: "Run a benchmark and print its table beside the reference figures."}
	c.Run = func(env *Env, args []string) int {
		names := make([]string, 0, len(benches))
		for n := range benches {
			names = append(names, n)
		}
		sort.Strings(names)
		if len(args) == 0 {
			return fail(env, c, "name a benchmark: %s", strings.Join(names, ", "))
		}
		b, ok := benches[args[0]]
		if !ok {
			return fail(env, c, "unknown benchmark %q; known: %s", args[0], strings.Join(names, ", "))
		}
		return b.run(env, args[1:])
	}
	register(c)
}

// Table prints rows as an aligned text table; every cell goes through
// safe(), as a cell may come from a file.
func printTable(env *Env, header []string, rows [][]string) {
	clean := make([][]string, len(rows))
	for i, r := range rows {
		clean[i] = make([]string, len(r))
		for j, c := range r {
			clean[i][j] = safe(c)
		}
	}
	rows = clean
	w := make([]int, len(header))
	for i, h := range header {
		w[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(w) && len([]rune(c)) > w[i] {
				w[i] = len([]rune(c))
			}
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", w[i]-len([]rune(c))))
			}
		}
		fmt.Fprintln(env.Stdout, b.String())
	}
	line(header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = strings.Repeat("-", w[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
}
