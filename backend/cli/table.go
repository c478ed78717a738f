package cli

import (
	"fmt"
	"io"
	"strings"
)

// printTable prints rows as an aligned text table; every cell goes through
// safe(), as a cell may come from a file.
func printTable(env *Env, header []string, rows [][]string) {
	PrintTable(env.Stdout, header, rows)
}

// PrintTable writes rows as an aligned text table to out (osfoundry-bench
// prints its tables with it).
func PrintTable(out io.Writer, header []string, rows [][]string) {
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
		fmt.Fprintln(out, b.String())
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
