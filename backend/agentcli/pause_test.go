//go:build linux

package agentcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/procs"
)

// procState is the one-letter state of pid in /proc/<pid>/stat ("T" stopped).
func procState(t *testing.T, pid int) string {
	t.Helper()
	s := procs.State(pid)
	if s == "" {
		t.Fatalf("reading the state of %d: no /proc entry", pid)
	}
	return s
}

// waitFor polls cond for up to 15 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func fakePID(t *testing.T, work string) int {
	t.Helper()
	var pids []int
	waitFor(t, "the fake CLI's pid", func() bool {
		_, err := os.Stat(filepath.Join(filepath.Dir(work), "pids"))
		return err == nil
	})
	pids = readPIDs(t, filepath.Dir(work))
	return pids[0]
}

// A paused run is frozen (state T, nothing printed), its time limit does
// not run out while it is paused, and once resumed it finishes normally.
func TestPauseFreezesRunAndHoldsItsLimit(t *testing.T) {
	r, work := fakeCLI(t, "slow")
	ctl := NewControl()
	var ticks atomic.Int32
	j := Job{Model: ModelClaudeAgent, Role: "Worker", Folder: work, Turns: []Turn{{Role: "user", Text: "slow"}},
		Limit: 3 * time.Second, Control: ctl,
		Tap: func(l []byte) {
			if strings.Contains(string(l), `"tick"`) {
				ticks.Add(1)
			}
		}}
	type done struct {
		res Result
		err error
	}
	out := make(chan done, 1)
	go func() { res, err := r.Run(context.Background(), j); out <- done{res, err} }()
	waitFor(t, "the first ticks", func() bool { return ticks.Load() >= 2 })
	if err := ctl.Pause(); err != nil {
		t.Fatal(err)
	}
	if !ctl.Paused() {
		t.Error("Paused() is false after Pause")
	}
	pid := fakePID(t, work)
	waitFor(t, "the CLI to stop", func() bool { return procState(t, pid) == "T" })
	time.Sleep(200 * time.Millisecond) // lines already in the pipe arrive
	before := ticks.Load()
	// Longer than the whole limit: a limit that kept running would kill it.
	time.Sleep(3500 * time.Millisecond)
	if got := ticks.Load(); got != before {
		t.Errorf("the paused run printed %d lines", got-before)
	}
	if procState(t, pid) != "T" {
		t.Errorf("the run is no longer stopped: %s", procState(t, pid))
	}
	if err := ctl.Resume(); err != nil {
		t.Fatal(err)
	}
	d := <-out
	if d.err != nil {
		t.Fatalf("resumed run: %v", d.err)
	}
	if d.res.Text != "slow done" || ticks.Load() != 10 {
		t.Errorf("text %q after %d ticks", d.res.Text, ticks.Load())
	}
	if err := ctl.Pause(); !errors.Is(err, ErrPauseUnavailable) {
		t.Errorf("pausing an ended run: %v", err)
	}
}

// Cancelling a paused run ends it and everything it started.
func TestCancelEndsPausedRun(t *testing.T) {
	r, work := fakeCLI(t, "hang")
	ctl := NewControl()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{}, 1)
	j := Job{Model: ModelClaudeAgent, Role: "Worker", Folder: work, Turns: []Turn{{Role: "user", Text: "hang"}}, Control: ctl,
		OnEvent: func(e Event) {
			if e.Kind == KindSession {
				started <- struct{}{}
			}
		}}
	errc := make(chan error, 1)
	go func() { _, err := r.Run(ctx, j); errc <- err }()
	<-started
	if err := ctl.Pause(); err != nil {
		t.Fatal(err)
	}
	pids := readPIDs(t, filepath.Dir(work))
	for _, pid := range pids {
		waitFor(t, "every process of the run to stop", func() bool { return procState(t, pid) == "T" })
	}
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrCanceled) {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("cancelling a paused run did not end it")
	}
	waitGone(t, pids)
}

// Pause before the program starts holds it: it is frozen the moment it
// starts, and Resume before then simply lets it start.
func TestPauseBeforeStart(t *testing.T) {
	c := NewControl()
	if err := c.Pause(); err != nil || !c.Paused() {
		t.Fatalf("pause before start: %v, paused %v", err, c.Paused())
	}
	if err := c.Resume(); err != nil || c.Paused() {
		t.Errorf("resume before start: %v, paused %v", err, c.Paused())
	}
	r, work := fakeCLI(t, "slow")
	ctl := NewControl()
	if err := ctl.Pause(); err != nil {
		t.Fatal(err)
	}
	j := Job{Model: ModelClaudeAgent, Role: "Worker", Folder: work, Turns: []Turn{{Role: "user", Text: "slow"}},
		Limit: time.Minute, Control: ctl}
	errc := make(chan error, 1)
	go func() { _, err := r.Run(context.Background(), j); errc <- err }()
	// It is frozen before it could write its pid: find it as a stopped
	// child of this test.
	waitFor(t, "the CLI to be stopped", func() bool { return stoppedChild() })
	if err := ctl.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatalf("resumed run: %v", err)
	}
}

// stoppedChild reports whether a child of this process is stopped.
func stoppedChild() bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		_, after, _ := strings.Cut(string(b), ") ")
		f := strings.Fields(after)
		if len(f) > 1 && f[0] == "T" && f[1] == fmt.Sprint(os.Getpid()) {
			return true
		}
	}
	return false
}
