package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

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
			runs := fs.Int("runs", 5, "runs of each side, in turn (medians are reported)")
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
			// Raw and pane in turn, so that each ratio compares two drains
			// made under the same load.
			var raws, panes, events, ratios []float64
			var rawSec, paneSec, rawCPU, paneCPU []float64
			for i := 0; i < *runs; i++ {
				// Each drain starts from a collected heap: neither pays for
				// the other's garbage.
				runtime.GC()
				c0 := selfCPU()
				r, err := terminal.RawDrain(file)
				if err != nil {
					fmt.Fprintln(env.Stderr, err)
					return 1
				}
				runtime.GC()
				c1 := selfCPU()
				p, err := terminal.PaneDrain(file)
				if err != nil {
					fmt.Fprintln(env.Stderr, err)
					return 1
				}
				// The reader's CPU (this process, not cat's) holds still
				// when the machine is loaded and wall-clock ratios do not.
				rawCPU, paneCPU = append(rawCPU, (c1-c0).Seconds()), append(paneCPU, (selfCPU()-c1).Seconds())
				raws, panes = append(raws, r.MBps()), append(panes, p.MBps())
				rawSec, paneSec = append(rawSec, r.Elapsed.Seconds()), append(paneSec, p.Elapsed.Seconds())
				events = append(events, p.EventsPerSecond())
				ratios = append(ratios, p.MBps()/r.MBps())
			}
			fmt.Fprintf(env.Stdout, "Pane throughput: %d MB of coloured log output via `cat`, 120×32, median of %d runs of each in turn\n\n", *mb, *runs)
			printTable(env, []string{"path", "MB/s", "seconds", "reader CPU s", "UI events/s", "pane ÷ raw (median of pairs)", "target"}, [][]string{
				{"raw PTY drain (reference, same run)", fmt.Sprintf("%.0f", median(raws)), fmt.Sprintf("%.2f", median(rawSec)), fmt.Sprintf("%.2f", median(rawCPU)), "—", "—", "—"},
				{"pane: PTY → filter → vt10x → batcher", fmt.Sprintf("%.0f", median(panes)), fmt.Sprintf("%.2f", median(paneSec)), fmt.Sprintf("%.2f", median(paneCPU)),
					fmt.Sprintf("%.0f", median(events)), fmt.Sprintf("%.2f×", median(ratios)), "≥ 0.8× raw, ≤ 60 events/s"},
			})
			return 0
		},
	})
}
