//go:build !windows

package terminal

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"syscall"
	"time"
)

// CanPause: every Unix pane can be frozen with job-control signals.
func (p *unixPTY) CanPause() bool { return true }

// stopWait bounds how long Pause waits for one generation of processes to
// stop before going on to their children (a process in uninterruptible
// sleep stops only when its I/O completes).
const stopWait = time.Second

// Pause freezes the pane's whole session with SIGSTOP, parents before
// children, each generation stopped before the next is signalled. Order
// matters: a job-control shell that is still running when its foreground
// job stops collects the stop from wait and, once resumed, takes the
// terminal back and prints "Stopped" — the agent would look ended. SIGSTOP
// takes effect only when the target next runs, so Pause waits for each
// generation to show as stopped in /proc. The foreground process group is
// signalled too, which covers systems without /proc where the session's
// members cannot be listed.
func (p *unixPTY) Pause() error {
	sid := p.Pid()
	if !procAvailable() {
		signalSession(sid, syscall.SIGSTOP)
		if fg, _ := p.Foreground(); fg > 0 && fg != sid {
			_ = syscall.Kill(-fg, syscall.SIGSTOP)
		}
		return nil
	}
	// Processes already stopped (a job the user suspended with Ctrl-Z)
	// are not ours to continue later: only what Pause stops is recorded.
	p.stopped = map[int]bool{}
	// Rounds catch processes forked while the earlier ones were stopping.
	for round := 0; round < 10; round++ {
		procs := sessionTree(sid)
		running := 0
		for _, level := range procs {
			var wait []int
			for _, pr := range level {
				if pr.state != "T" && pr.state != "t" {
					_ = syscall.Kill(pr.pid, syscall.SIGSTOP)
					p.stopped[pr.pid] = true
					wait = append(wait, pr.pid)
				}
			}
			running += len(wait)
			waitStopped(wait, stopWait)
		}
		if running == 0 {
			return nil
		}
	}
	if left := runningMembers(sid); len(left) > 0 {
		_ = p.Resume() // nothing stays half paused
		return fmt.Errorf("pausing: processes %v did not stop", left)
	}
	return nil
}

// Resume continues the session children first, the leader (the shell)
// last: by the time the shell runs again its job is running, so it has no
// stopped job to report. SIGCONT takes effect when sent, so the order of
// the calls is the order processes resume in.
func (p *unixPTY) Resume() error {
	sid := p.Pid()
	mine := p.stopped
	p.stopped = nil
	if mine == nil { // paused without /proc: continue the whole session
		if fg, _ := p.Foreground(); fg > 0 && fg != sid {
			_ = syscall.Kill(-fg, syscall.SIGCONT)
		}
		signalSession(sid, syscall.SIGCONT)
		return nil
	}
	tree := sessionTree(sid) // only current members: a pid reused since is not ours
	for i := len(tree) - 1; i >= 0; i-- {
		for _, pr := range tree[i] {
			if mine[pr.pid] {
				_ = syscall.Kill(pr.pid, syscall.SIGCONT)
			}
		}
	}
	return nil
}

type member struct {
	pid, ppid int
	state     string
}

// sessionTree lists the session's live processes by generation: the
// leader first, then its children, and so on. A process whose parent is
// outside the session (reparented after its parent exited) counts as a
// first-generation child.
func sessionTree(sid int) [][]member {
	all := map[int]member{}
	for _, pid := range sessionMembers(sid) {
		if ppid, state, ok := procParent(pid); ok {
			all[pid] = member{pid, ppid, state}
		}
	}
	depth := map[int]int{}
	var depthOf func(pid, hops int) int
	depthOf = func(pid, hops int) int {
		if d, ok := depth[pid]; ok {
			return d
		}
		m, in := all[pid]
		d := 0
		switch {
		case pid == sid || hops > len(all):
		case !in || m.ppid == pid:
		case all[m.ppid].pid == 0:
			d = 1 // parent outside the session
		default:
			d = depthOf(m.ppid, hops+1) + 1
		}
		depth[pid] = d
		return d
	}
	var out [][]member
	for pid, m := range all {
		d := depthOf(pid, 0)
		for len(out) <= d {
			out = append(out, nil)
		}
		out[d] = append(out[d], m)
	}
	for _, l := range out {
		sort.Slice(l, func(i, j int) bool { return l[i].pid < l[j].pid })
	}
	return out
}

// waitStopped waits until every pid is stopped or gone, at most d.
func waitStopped(pids []int, d time.Duration) {
	deadline := time.Now().Add(d)
	for len(pids) > 0 && time.Now().Before(deadline) {
		left := pids[:0]
		for _, pid := range pids {
			if _, st, ok := procParent(pid); ok && st != "T" && st != "t" && st != "Z" {
				left = append(left, pid)
			}
		}
		pids = left
		if len(pids) > 0 {
			time.Sleep(time.Millisecond)
		}
	}
}

// runningMembers lists the session's processes that are not stopped.
func runningMembers(sid int) []int {
	var out []int
	for _, pid := range sessionMembers(sid) {
		if _, state, ok := procStat(pid); ok && state != "T" && state != "t" {
			out = append(out, pid)
		}
	}
	return out
}

// procParent reads the parent pid and state of pid from /proc/<pid>/stat.
func procParent(pid int) (ppid int, state string, ok bool) {
	f := procStatFields(pid)
	if len(f) < 2 {
		return 0, "", false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, f[0], err == nil
}

func procAvailable() bool {
	_, _, ok := procStat(os.Getpid())
	return ok
}
