package terminal

import (
	"fmt"
	"os"
)

// Spec is what is remembered of a pane across restarts: where and what it
// runs, never its text.
type Spec struct {
	ID   string
	Dir  string
	Argv []string
	Cols int
	Rows int
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

// Restore starts the panes that were open at the last quit, in parallel.
// A pane whose folder or program is gone is forgotten, and the returned
// error lists each one so the UI can say so.
func (m *Manager) Restore(env []string) error {
	m.mu.Lock()
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
	errs := make(chan error, len(specs))
	for _, sp := range specs {
		go func() {
			_, err := m.create(Options{ID: sp.ID, Dir: sp.Dir, Argv: sp.Argv, Env: env, Cols: sp.Cols, Rows: sp.Rows})
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
