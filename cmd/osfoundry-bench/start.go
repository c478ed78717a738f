package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/osfoundry/desktop/backend/launch"
	"github.com/osfoundry/desktop/backend/panehook"
)

// Start-up cost of the two programs of an install on the calls agents
// make most: every Claude Code hook (PreToolUse before each tool) runs
// `osfoundry pane report`, and scripts run `osfoundry version`. The
// window app loads GTK and WebKit before it can do either.
func init() {
	registerBench(&bench{
		name: "start",
		help: "hook helper and version: the command line beside the window app, wall time and peak memory per call",
		run:  runBenchStart,
	})
}

type startRow struct {
	program, call string
	wall          []time.Duration
	rss           []float64 // MiB
}

func runBenchStart(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench start", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	n := fs.Int("n", 20, "calls per row")
	dir := fs.String("dir", "", "folder holding osfoundry and osfoundry-desktop (default: beside this program)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" {
		me, err := os.Executable()
		if err != nil {
			fmt.Fprintln(env.Stderr, "osfoundry-bench start:", err)
			return 1
		}
		*dir = filepath.Dir(me)
	}
	// A real report channel, as a pane's hooks see it.
	srv, err := panehook.Start(func(panehook.Report) {})
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry-bench start:", err)
		return 1
	}
	defer srv.Close()
	paneEnv := append(os.Environ(), srv.Register("bench-pane")...)
	var rows []startRow
	for _, prog := range []string{launch.CLIName, launch.WindowName} {
		path := filepath.Join(*dir, prog)
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry-bench start: %s is missing (make app cli builds both): %v\n", path, err)
			return 1
		}
		// The two calls in turn, so that each report is compared with a
		// version started under the same load.
		calls := [][]string{{"pane", "report", "working"}, {"version"}}
		pair := []startRow{{program: prog, call: fmt.Sprint(calls[0])}, {program: prog, call: fmt.Sprint(calls[1])}}
		for i := 0; i < *n; i++ {
			for k, call := range calls {
				wall, rss, err := timeCall(path, call, paneEnv)
				if err != nil {
					fmt.Fprintf(env.Stderr, "osfoundry-bench start: %s %v: %v\n", prog, call, err)
					return 1
				}
				pair[k].wall, pair[k].rss = append(pair[k].wall, wall), append(pair[k].rss, rss)
			}
		}
		rows = append(rows, pair...)
	}
	// The hook's round trip (connect, send, the app's answer) beside the
	// command line's own start, call by call (before median sorts the walls).
	ratios := make([]float64, len(rows[0].wall))
	for i := range ratios {
		ratios[i] = rows[0].wall[i].Seconds() / rows[1].wall[i].Seconds()
	}
	var table [][]string
	for _, r := range rows {
		ref := "79 ms, 67 MiB (GUI binary before the split)"
		if r.program == launch.CLIName {
			ref = "target ≤ 10 ms, ≤ 20 MiB"
		}
		table = append(table, []string{r.program + " " + r.call[1:len(r.call)-1],
			ms(median(r.wall)) + " / " + ms(slices.Max(r.wall)),
			fmt.Sprintf("%.1f / %.1f MiB", median(r.rss), slices.Max(r.rss)), ref})
	}
	fmt.Fprintf(env.Stdout, "Per call, %d calls each (median / max); peak RSS from the kernel's rusage\n", *n)
	printTable(env, []string{"call", "wall", "peak RSS", "reference"}, table)
	fmt.Fprintln(env.Stdout)
	printTable(env, []string{"round trip", "ours", "reference, same run", "ratio (median of pairs)", "target"}, [][]string{{
		launch.CLIName + " pane report working", ms(median(rows[0].wall)), launch.CLIName + " version " + ms(median(rows[1].wall)),
		fmt.Sprintf("%.2f×", median(ratios)), "≤ 2×"}})
	return 0
}

// timeCall runs one call and returns its wall time and peak RSS (MiB).
func timeCall(path string, args, env []string) (time.Duration, float64, error) {
	cmd := exec.Command(path, args...)
	cmd.Env = env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return 0, 0, err
		}
		return 0, 0, fmt.Errorf("%v: %s", err, out)
	}
	return wall, maxRSSMiB(cmd.ProcessState), nil
}
