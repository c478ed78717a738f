// Command record re-records the agent fixtures from the pinned real CLIs:
// TUI byte streams per state, headless JSON streams and the session stores
// they wrote. Run it through `make fixtures` (build/scripts/fixtures.sh).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
	"github.com/osfoundry/desktop/backend/testkit/fixtures"
	"github.com/osfoundry/desktop/backend/testkit/record"
)

func main() {
	// Claude Code's hooks run this binary as the pane helper while a
	// recording saves their reports (record.Helper).
	if len(os.Args) > 1 && os.Args[1] == record.HelperArg {
		stdin, _ := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
		if err := record.Helper(os.Args[2:], stdin, os.Getenv); err != nil {
			fmt.Fprintln(os.Stderr, "record pane:", err)
			os.Exit(1)
		}
		return
	}
	out := flag.String("out", "", "fixtures folder (default: backend/testkit/fixtures/testdata)")
	only := flag.String("only", "", "comma-separated recordings to run (e.g. claude,claude-fullscreen,codex,codex-inline,headless); default all")
	tmp := flag.String("tmp", filepath.Join(os.TempDir(), "osf-fixtures"), "folder for the agents' temp homes (fixed, so recorded paths stay stable)")
	flag.Parse()
	if err := run(*out, *only, *tmp); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run(out, only, tmp string) error {
	if out == "" {
		d, err := fixtures.Dir()
		if err != nil {
			return err
		}
		out = d
	}
	logf := func(f string, a ...any) { fmt.Printf(f+"\n", a...) }
	r, err := record.NewRun(out, tmp, logf)
	if err != nil {
		return err
	}
	if exe, err := os.Executable(); err == nil {
		r.HelperExe = exe
	}
	want := map[string]bool{}
	for _, s := range strings.Split(only, ",") {
		if s != "" {
			want[s] = true
		}
	}
	start := time.Now()
	for _, job := range record.Jobs() {
		if len(want) > 0 && !want[job.Name] && !want[job.Agent] {
			continue
		}
		if _, ok := agentbin.Find(job.Agent); !ok {
			if job.Agent == "claude" || job.Agent == "codex" {
				return fmt.Errorf("%s: %s", job.Name, agentbin.SkipMessage(job.Agent))
			}
			// The other agents are best effort, like their install.
			logf("skipping %s: %s", job.Name, agentbin.SkipMessage(job.Agent))
			continue
		}
		version, err := agentbin.Version(agentbin.Packages[job.Agent])
		if err != nil {
			return err
		}
		t0 := time.Now()
		logf("%s %s", job.Name, version)
		if err := job.Record(r, job.Name+"-"+version); err != nil {
			return fmt.Errorf("recording %s: %w", job.Name, err)
		}
		logf("  done in %s", time.Since(t0).Round(100*time.Millisecond))
	}
	if err := record.WriteManifest(r); err != nil {
		return err
	}
	logf("recorded %d files in %s into %s", len(r.Files()), time.Since(start).Round(100*time.Millisecond), out)
	return nil
}
