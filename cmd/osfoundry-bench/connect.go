package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/osfoundry/desktop/backend/connect/connecttest"
)

func init() {
	registerBench(&bench{name: "connect", help: "Connected endpoint: discovery, per-call access check, tools/call throughput",
		run: runBenchConnect})
}

func runBenchConnect(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench connect", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	runs := fs.Int("discoveries", 20, "discovery runs")
	checks := fs.Int("checks", 2000, "access checks (half allowed, half denied)")
	clients := fs.Int("clients", 8, "concurrent clients")
	dur := fs.Duration("duration", 3*time.Second, "throughput window")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dir, err := os.MkdirTemp("", "osfoundry-bench-connect-")
	if err != nil {
		fmt.Fprintf(env.Stderr, "bench connect: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	r, err := connecttest.Bench(context.Background(), connecttest.BenchOptions{Dir: dir, Discoveries: *runs, Checks: *checks, Clients: *clients, Duration: *dur})
	if err != nil {
		fmt.Fprintf(env.Stderr, "bench connect: %v\n", err)
		return 1
	}
	q := connecttest.Quantile
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	us := func(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1000) }
	rows := [][]string{
		{fmt.Sprintf("discovery, 5 round trips (n=%d) median", len(r.Discovery)), ms(q(r.Discovery, .5)), "≤ 3 ms", "7.5–13.4 ms (Python, local)"},
		{"discovery min / max", ms(q(r.Discovery, 0)) + " / " + ms(q(r.Discovery, 1)), "", ""},
	}
	for _, s := range r.StepOrder {
		rows = append(rows, []string{"  " + s + " median", ms(q(r.Steps[s], .5)), "", ""})
	}
	all := append(append([]time.Duration{}, r.CheckAllowed...), r.CheckDeny...)
	rows = append(rows,
		[]string{fmt.Sprintf("access check, SQLite (n=%d) p50", len(all)), us(q(all, .5)), "≤ 30 µs", "1.3–1.6 µs (in memory)"},
		[]string{"access check p99", us(q(all, .99)), "≤ 200 µs", "6.1–7.0 µs (in memory)"},
		[]string{"  allowed p50 / denied p50", us(q(r.CheckAllowed, .5)) + " / " + us(q(r.CheckDeny, .5)), "", ""},
		[]string{"token lookup p50 / p99", us(q(r.Verify, .5)) + " / " + us(q(r.Verify, .99)), "", ""},
		[]string{fmt.Sprintf("tools/call, %d clients, throughput", r.Clients), fmt.Sprintf("%.0f calls/s", float64(r.Calls)/r.Window.Seconds()), "", ""},
		[]string{"tools/call latency p50 / p99", ms(q(r.CallLatency, .5)) + " / " + ms(q(r.CallLatency, .99)), "", "0.43–0.78 ms median (1 client)"},
	)
	printTable(env, []string{"MEASURE", "MEASURED", "TARGET", "REFERENCE"}, rows)
	return 0
}
