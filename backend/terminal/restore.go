package terminal

import (
	"fmt"
	"os"
	"sort"
	"time"
)

// Spec is what is remembered of a pane across restarts: where and what it
// runs. Its text is kept apart, and only when the person keeps scrollback
// (ScrollbackStore).
type Spec struct {
	ID   string
	Dir  string
	Argv []string
	Cols int
	Rows int
	// Position is the pane's place in the rail; restored panes keep it.
	Position int
	// Session is the conversation the pane's agent last reported, which a
	// restore resumes (zero: none reported).
	Session Session
	// Name is what the person called the pane ("" when never renamed).
	Name string
	// Branch is the pane's own branch and worktree (nil: none).
	Branch *Branch
}

// Session is a conversation an agent reported from a pane: its id, and the
// file the agent keeps it in when known (a resume needs it to exist).
type Session struct {
	ID   string `json:"id"`
	File string `json:"file,omitempty"`
}

// Resume decides what a restored pane runs: the agent's own way back into
// the conversation sp.Session names (why says so, for the rail), or sp.Argv
// unchanged (nil argv) when there is nothing to resume. env is the
// environment the pane will get.
type Resume func(sp Spec, env []string) (argv []string, why string)

// SetResume sets how Restore brings agent panes back (nil: as started).
func (m *Manager) SetResume(f Resume) {
	m.mu.Lock()
	m.resume = f
	m.mu.Unlock()
}

// SetSession records the conversation a pane's agent reported, so the
// next start resumes it. Unknown panes are an error; the same session
// again writes nothing.
func (m *Manager) SetSession(id string, s Session) error {
	p, err := m.Get(id)
	if err != nil {
		return err
	}
	p.mu.Lock()
	same := p.session == s
	p.session = s
	p.mu.Unlock()
	if same {
		return nil
	}
	return m.save(p)
}

// save writes a pane's spec to the store, if any, while the pane is open:
// a closed pane's row stays deleted (see storeMu).
func (m *Manager) save(p *Pane) error {
	m.storeMu.Lock()
	defer m.storeMu.Unlock()
	m.mu.Lock()
	st, open := m.specs, m.pan[p.ID()] == p
	m.mu.Unlock()
	if st == nil || !open {
		return nil
	}
	c, r := p.emu.Size()
	return st.SavePane(Spec{ID: p.ID(), Dir: p.Dir(), Argv: p.Argv(), Cols: c, Rows: r, Position: p.position, Session: p.Session(), Name: p.Name(), Branch: p.branch()})
}

// SpecStore persists open panes (the app passes a SQLite store).
type SpecStore interface {
	SavePane(Spec) error
	DeletePane(id string) error
	LoadPanes() ([]Spec, error)
}

// SetStore makes the Manager remember panes in st.
func (m *Manager) SetStore(st SpecStore) {
	m.mu.Lock()
	m.specs = st
	m.mu.Unlock()
}

// ExpectRestore says the saved panes will be restored by RestoreExpected.
// The app restores them after its window's first frame (four shells
// starting beside the web view cost ~0.4 s of first paint on two cores);
// until then the Terminal screen's list waits for them rather than showing
// no panes.
func (m *Manager) ExpectRestore() {
	m.mu.Lock()
	if m.restoring == nil {
		m.restoring = make(chan struct{})
		m.restoreDue = true
	}
	m.mu.Unlock()
}

// RestoreExpected runs the restore ExpectRestore announced, once: later
// calls, and calls after CloseAll, do nothing.
func (m *Manager) RestoreExpected(env []string) error {
	m.mu.Lock()
	due := m.restoreDue
	m.restoreDue = false
	m.mu.Unlock()
	if !due {
		return nil
	}
	return m.Restore(env)
}

// cancelRestore drops a restore not started yet and waits for a running
// one, so closing everything leaves no restored pane behind.
func (m *Manager) cancelRestore() {
	m.mu.Lock()
	if m.restoreDue {
		m.restoreDue = false
		close(m.restoring)
		m.restoring = nil
	}
	m.mu.Unlock()
	m.awaitRestore(10 * time.Second)
}

// Restoring is how many saved panes an expected or running restore has
// not started yet: the rail says "Restoring N panes…" meanwhile instead of
// "No panes yet" (a restore waits for the login shell's environment, which
// can take seconds).
func (m *Manager) Restoring() int {
	m.mu.Lock()
	due, st := m.restoring != nil, m.specs
	m.mu.Unlock()
	if !due || st == nil {
		return 0
	}
	specs, err := st.LoadPanes()
	if err != nil {
		return 0
	}
	n := 0
	m.mu.Lock()
	for _, sp := range specs {
		if m.pan[sp.ID] == nil {
			n++
		}
	}
	m.mu.Unlock()
	return n
}

// awaitRestore waits, at most d, for an expected Restore to finish.
func (m *Manager) awaitRestore(d time.Duration) {
	m.mu.Lock()
	ch := m.restoring
	m.mu.Unlock()
	if ch == nil {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// Restore starts the panes that were open at the last quit, in parallel.
// A pane whose folder or program is gone is forgotten, and the returned
// error lists each one so the UI can say so.
func (m *Manager) Restore(env []string) error {
	defer func() {
		m.mu.Lock()
		if m.restoring != nil {
			close(m.restoring)
			m.restoring = nil
		}
		m.mu.Unlock()
	}()
	m.mu.Lock()
	m.restoreDue = false // run now: RestoreExpected will not run it again
	st := m.specs
	m.mu.Unlock()
	if st == nil {
		return nil
	}
	specs, err := st.LoadPanes()
	if err != nil {
		return err
	}
	if env == nil {
		env = os.Environ()
	}
	// The panes start concurrently; their places in the rail are handed
	// out first, in the saved order.
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].Position < specs[j].Position })
	m.mu.Lock()
	first := m.nextPos + 1
	m.nextPos += len(specs)
	resume := m.resume
	m.mu.Unlock()
	errs := make(chan error, len(specs))
	for i, sp := range specs {
		go func() {
			o := Options{ID: sp.ID, Dir: sp.Dir, Argv: sp.Argv, Env: env, Cols: sp.Cols, Rows: sp.Rows,
				Position: first + i, Session: sp.Session, Name: sp.Name, Branch: sp.Branch}
			if resume != nil && sp.Session.ID != "" {
				o.RunArgv, o.Resumed = resume(sp, env)
			}
			o = m.restoredOptions(o)
			_, err := m.create(o)
			if err != nil {
				st.DeletePane(sp.ID)
				err = fmt.Errorf("pane in %s was not restored: %w", sp.Dir, err)
			}
			errs <- err
		}()
	}
	var msgs []error
	for range specs {
		if err := <-errs; err != nil {
			msgs = append(msgs, err)
		}
	}
	if len(msgs) > 0 {
		return fmt.Errorf("restoring panes: %v", msgs)
	}
	return nil
}
