package terminal

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/worktree"
)

// Branch is a pane's own branch and working copy (a git worktree), made
// by "On a new branch" in the New pane form. It outlives the pane: closing
// the pane keeps the worktree, which holds the agent's work.
type Branch struct {
	Repo       string `json:"repo"`       // the repository's top folder
	Worktree   string `json:"worktree"`   // the worktree folder
	Name       string `json:"name"`       // osf/<name>
	Base       string `json:"base"`       // the base branch
	BaseCommit string `json:"baseCommit"` // the commit the branch started from
	PortOffset int    `json:"portOffset"` // OSF_PORT_OFFSET of the pane
}

// BranchStat is the pane branch's +added −removed since its base.
type BranchStat = worktree.Stat

// diffEvery is how often the rail's +/− counts are read: one `git diff
// --numstat` and one `git ls-files` per branch pane, a few ms each on a
// large repository, and a glance does not need them fresher. A pane whose
// screen did not change since is read only every diffQuiet (files can
// still change: an editor, a build the person runs elsewhere).
const (
	diffEvery = 2 * time.Second
	diffQuiet = 20 * time.Second
)

// branchState is the Manager's part for branch panes: their port offsets
// and the timer that reads their counts.
type branchState struct {
	ports    worktree.Ports
	mu       sync.Mutex
	watching bool
	onDiff   []func(id string)
}

// OnBranchDiff registers fn, called when a branch pane's +/− counts
// changed (the Sessions board shows them on the pane's card).
func (m *Manager) OnBranchDiff(fn func(id string)) {
	m.branches.mu.Lock()
	m.branches.onDiff = append(m.branches.onDiff, fn)
	m.branches.mu.Unlock()
}

func (m *Manager) diffChanged(id string) {
	m.branches.mu.Lock()
	fns := m.branches.onDiff
	m.branches.mu.Unlock()
	for _, f := range fns {
		f(id)
	}
}

// withBranch gives a branch pane its port offset (kept across a restore
// unless another live worktree took it meanwhile) in its environment.
func (m *Manager) withBranch(o Options) Options {
	if o.Branch == nil {
		return o
	}
	b := *o.Branch
	if b.PortOffset <= 0 || !m.branches.ports.Hold(o.ID, b.PortOffset) {
		b.PortOffset = m.branches.ports.Take(o.ID)
	}
	o.Branch = &b
	if o.Env == nil {
		o.Env = os.Environ()
	}
	o.Env = append(append([]string(nil), o.Env...), worktree.EnvPortOffset+"="+strconv.Itoa(b.PortOffset))
	return o
}

// watchDiffs starts the timer that keeps branch panes' counts current,
// unless it runs; it stops once no branch pane is left.
func (m *Manager) watchDiffs() {
	m.branches.mu.Lock()
	defer m.branches.mu.Unlock()
	if m.branches.watching {
		return
	}
	m.branches.watching = true
	go func() {
		t := time.NewTicker(diffEvery)
		defer t.Stop()
		for {
			if !m.refreshDiffs() {
				m.branches.mu.Lock()
				m.branches.watching = false
				m.branches.mu.Unlock()
				return
			}
			<-t.C
		}
	}()
}

// refreshDiffs reads every branch pane's counts and tells the UI when one
// changed; false when there is no branch pane.
func (m *Manager) refreshDiffs() bool {
	m.mu.Lock()
	var ps []*Pane
	for _, p := range m.pan {
		if p.opts.Branch != nil {
			ps = append(ps, p)
		}
	}
	m.mu.Unlock()
	changed := false
	for _, p := range ps {
		if p.quiet() {
			continue
		}
		if p.refreshDiff() {
			changed = true
			m.diffChanged(p.ID())
		}
	}
	if changed {
		m.emit.Emit(EventPanes, nil)
	}
	return len(ps) > 0
}

// quiet says the pane drew nothing since its counts were read, not long
// ago: reading them again can wait.
func (p *Pane) quiet() bool {
	p.mu.Lock()
	at := p.diffAt
	p.mu.Unlock()
	if at.IsZero() || time.Since(at) > diffQuiet || p.drawn == nil {
		return false
	}
	return p.drawn.Load() < at.UnixNano()
}

// refreshDiff reads the pane branch's counts; true when they changed.
func (p *Pane) refreshDiff() bool {
	b := p.opts.Branch
	// What changed on screen while git reads counts for the next read.
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := worktree.Diff(ctx, p.opts.Env, b.Worktree, b.BaseCommit)
	if err != nil {
		return false // the worktree may be gone; the last counts stay
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.diffAt = start
	if p.diff == st {
		return false
	}
	p.diff = st
	return true
}

// BranchDiff is the pane branch's counts as last read.
func (p *Pane) BranchDiff() BranchStat {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.diff
}

// RefreshBranch reads a branch pane's counts now (tests; the timer does it
// every diffEvery).
func (m *Manager) RefreshBranch(id string) (Info, error) {
	p, err := m.Get(id)
	if err != nil {
		return Info{}, err
	}
	if p.opts.Branch == nil {
		return Info{}, fmt.Errorf("pane %s is not on a branch of its own", id)
	}
	if p.refreshDiff() {
		m.diffChanged(id)
		m.emit.Emit(EventPanes, nil)
	}
	return infoOf(p), nil
}

// branch is the pane's branch as started (its port offset included).
func (p *Pane) branch() *Branch { return p.opts.Branch }
