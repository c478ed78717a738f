package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osfoundry/desktop/backend/terminal"
)

func init() {
	registerBench(&bench{
		name: "pty",
		help: "Pane throughput: a child writes N MB through PTY → emulator → batcher, beside a raw PTY drain.",
		run: func(env *Env, args []string) int {
			fs := flag.NewFlagSet("bench pty", flag.ContinueOnError)
			fs.SetOutput(env.Stderr)
			mb := fs.Int("mb", 100, "megabytes the child writes")
			runs := fs.Int("runs", 3, "runs of each side (the best is reported)")
			if err := fs.Parse(args); err != nil {
				return 2
			}
			dir, err := os.MkdirTemp("", "osf-bench-pty-")
			if err != nil {
				fmt.Fprintln(env.Stderr, err)
				return 1
			}
			defer os.RemoveAll(dir)
			file := filepath.Join(dir, "output.txt")
			if err := terminal.WriteSampleOutput(file, int64(*mb)<<20); err != nil {
				fmt.Fprintln(env.Stderr, err)
				return 1
			}
			var raw, pane terminal.ThroughputResult
			for i := 0; i < *runs; i++ {
				r, err := terminal.RawDrain(file)
				if err != nil {
					fmt.Fprintln(env.Stderr, err)
					return 1
				}
				p, err := terminal.PaneDrain(file)
				if err != nil {
					fmt.Fprintln(env.Stderr, err)
					return 1
				}
				if raw.Elapsed == 0 || r.Elapsed < raw.Elapsed {
					raw = r
				}
				if pane.Elapsed == 0 || p.Elapsed < pane.Elapsed {
					pane = p
				}
			}
			fmt.Fprintf(env.Stdout, "Pane throughput: %d MB of coloured log output via `cat`, 120×32, best of %d\n\n", *mb, *runs)
			printTable(env, []string{"path", "MB/s", "seconds", "UI events/s", "target"}, [][]string{
				{"raw PTY drain (upper bound)", fmt.Sprintf("%.0f", raw.MBps()), fmt.Sprintf("%.2f", raw.Elapsed.Seconds()), "—", "—"},
				{"pane: PTY → filter → vt10x → batcher", fmt.Sprintf("%.0f", pane.MBps()), fmt.Sprintf("%.2f", pane.Elapsed.Seconds()),
					fmt.Sprintf("%.0f", pane.EventsPerSecond()), "≥ 50% of raw, ≤ 60 events/s"},
			})
			fmt.Fprintf(env.Stdout, "\npane/raw = %.0f%%\n", 100*pane.MBps()/raw.MBps())
			return 0
		},
	})
}
