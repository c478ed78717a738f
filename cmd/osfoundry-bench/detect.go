package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/detect/detectbench"
	"github.com/osfoundry/desktop/rules"
)

func init() {
	registerBench(&bench{
		name: "detect",
		help: "The reference article's needs-you experiment (its experiment 004) (fake agent, user bot, detectors side by side) and detection CPU for 20 spinning panes.",
		run:  benchDetect,
	})
}

func benchDetect(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench detect", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	seed := fs.Uint64("seed", 7, "random seed of the run (the reference article used 7)")
	tasks := fs.Int("tasks", 30, "tasks the user bot gives the fake agent")
	delay := fs.Duration("delay", detect.DefaultDelay, "our coalescing delay after a screen change")
	sweep := fs.Duration("sweep", detect.DefaultSweep, "our safety sweep period")
	live := fs.Bool("live", false, "run in real time through a real PTY instead of virtual time (30 tasks ≈ 11 min; use --tasks to shorten)")
	panes := fs.Int("cpu-panes", 20, "panes with 10 Hz spinners for the CPU measurement (0 skips it)")
	cpuFor := fs.Duration("cpu-time", 10*time.Second, "real time per CPU run (two runs: without and with detection)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	reg, _, err := detect.Load(rules.Files, "") // bundled rules only: the bench must not depend on a user's overrides
	if err != nil {
		fmt.Fprintf(env.Stderr, "bench detect: %v\n", err)
		return 1
	}
	o := detectbench.Options{Seed: *seed, Tasks: *tasks, Delay: *delay, Sweep: *sweep}
	run, mode := detectbench.Run, "virtual time, through the app's emulator"
	if *live {
		run, mode = detectbench.RunLive, "real time, real PTY, through the app's emulator"
	}
	res, err := run(reg, o)
	if err != nil {
		fmt.Fprintf(env.Stderr, "bench detect: %v\n", err)
		return 1
	}
	s := res.Script
	fmt.Fprintf(env.Stdout, "Needs-you detectors, fake Claude-like agent (%s, 120x32)\n", mode)
	fmt.Fprintf(env.Stdout, "this run: seed %d, %d tasks, %d prompts, %.0f s waiting, %.1f min   seed 004: seed 7, 30 tasks, 25 prompts, 144 s waiting, 10.6 min\n\n",
		*seed, *tasks, s.Prompts, s.Waited.Seconds(), s.End.Minutes())
	header := []string{"DETECTOR", "LATENCY MEDIAN", "MAX", "MISSES", "RESIDUAL", "FP WORKING", "FP IDLE"}
	var rows [][]string
	for i, sc := range res.Scores {
		rows = append(rows, append([]string{sc.Name}, sc.Cells()...))
		key, label := sc.Name, "  seed 004"
		if i == 0 {
			key, label = "targets", "  targets (issue 4)"
		}
		if ref, ok := detectbench.SeedRows[key]; ok {
			rows = append(rows, []string{label, ref.Median, ref.Max, ref.Misses, ref.Residual, ref.FPWork, ref.FPIdle})
		}
	}
	printTable(env, header, rows)
	fmt.Fprintf(env.Stdout, "\nours: %d evaluations, %.1f ms of evaluation work in total; latency includes that work. FP = episodes / seconds.\n",
		res.Evals, float64(res.EvalCPU.Microseconds())/1000)
	if *panes <= 0 {
		return 0
	}
	fmt.Fprintf(env.Stdout, "\nDetection CPU, %d panes with 10 Hz spinners, real time (%v per run, getrusage):\n\n", *panes, *cpuFor)
	c, err := detectbench.CPU(reg, *panes, *cpuFor)
	if err != nil {
		fmt.Fprintf(env.Stderr, "bench detect: %v\n", err)
		return 1
	}
	pct := func(f float64) string { return fmt.Sprintf("%.2f %%", f*100) }
	printTable(env, []string{"MEASURE", "SHARE OF ONE CORE", "TARGET"}, [][]string{
		{"emulators only (no detection)", pct(c.BaselineCore), ""},
		{"emulators + detection", pct(c.WithCore), ""},
		{"detection (difference)", pct(c.DetectionCore()), "≤ 5 %"},
		{"detection (timed inside evaluations)", pct(c.EvalCore), "≤ 5 %"},
		{"evaluations per second", fmt.Sprintf("%.0f", c.EvalsPerSec), ""},
	})
	return 0
}
