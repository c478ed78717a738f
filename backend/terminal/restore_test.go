//go:build !windows

package terminal

import (
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// memSpecs is an in-memory SpecStore.
type memSpecs struct {
	mu    sync.Mutex
	specs []Spec
}

func (s *memSpecs) SavePane(sp Spec) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, o := range s.specs {
		if o.ID == sp.ID {
			s.specs[i] = sp
			return nil
		}
	}
	s.specs = append(s.specs, sp)
	return nil
}

func (s *memSpecs) DeletePane(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, o := range s.specs {
		if o.ID == id {
			s.specs = append(s.specs[:i], s.specs[i+1:]...)
			break
		}
	}
	return nil
}

func (s *memSpecs) LoadPanes() ([]Spec, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Spec(nil), s.specs...), nil
}

// The window paints before panes are restored; the rail's list must then
// wait for them instead of reporting none.
func TestListWaitsForAnExpectedRestore(t *testing.T) {
	m := NewManager(nil)
	defer m.CloseAll()
	m.SetStore(&memSpecs{specs: []Spec{{ID: "p-r1", Dir: t.TempDir(), Argv: []string{"/bin/sh"}, Cols: 80, Rows: 24}}})
	svc := NewService(m, nil)

	if n := svc.Restoring(); n != 0 {
		t.Fatalf("Restoring before a restore is expected = %d, want 0", n)
	}
	m.ExpectRestore()
	if n := svc.Restoring(); n != 1 {
		t.Fatalf("Restoring while the restore waits = %d, want the 1 saved pane", n)
	}
	got := make(chan []Info, 1)
	go func() { got <- svc.List() }()
	select {
	case l := <-got:
		t.Fatalf("List answered %d panes while the restore was still pending", len(l))
	case <-time.After(150 * time.Millisecond):
	}
	if err := svc.RestoreSaved(); err != nil {
		t.Fatal(err)
	}
	select {
	case l := <-got:
		if len(l) != 1 || l[0].ID != "p-r1" {
			t.Fatalf("List after the restore = %+v, want the restored pane p-r1", l)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("List still waiting after the restore")
	}

	if n := svc.Restoring(); n != 0 {
		t.Fatalf("Restoring after the restore = %d, want 0", n)
	}

	// The restore runs once: a second call starts no second copy.
	if err := svc.RestoreSaved(); err != nil {
		t.Fatal(err)
	}
	if l := svc.List(); len(l) != 1 {
		t.Fatalf("after a second RestoreSaved: %d panes, want 1", len(l))
	}
}

// Quitting before the first frame: the saved panes are not started later.
func TestCloseAllCancelsAPendingRestore(t *testing.T) {
	m := NewManager(nil)
	m.SetStore(&memSpecs{specs: []Spec{{ID: "p-r2", Dir: t.TempDir(), Argv: []string{"/bin/sh"}, Cols: 80, Rows: 24}}})
	svc := NewService(m, nil)
	m.ExpectRestore()
	m.CloseAll()
	if err := svc.RestoreSaved(); err != nil {
		t.Fatal(err)
	}
	if l := svc.List(); len(l) != 0 {
		t.Fatalf("a restore after CloseAll started %d panes", len(l))
	}
}

// Restored panes start concurrently; the rail must still list them in the
// order they were saved, not in the order their programs happened to start.
func TestRestoreKeepsTheSavedOrder(t *testing.T) {
	dir := t.TempDir()
	st := &memSpecs{}
	for _, id := range []string{"p-first", "p-second", "p-third", "p-fourth"} {
		st.specs = append(st.specs, Spec{ID: id, Dir: dir, Argv: []string{"/bin/sh"}, Cols: 80, Rows: 24})
	}
	m := NewManager(nil)
	defer m.CloseAll()
	m.SetStore(st)
	// The first saved pane is the slowest to start (a big shell rc, a
	// loaded disk): it starts last.
	m.SetLaunch(func(id string, _, _ []string) ([]string, []string) {
		if id == "p-first" {
			time.Sleep(300 * time.Millisecond)
		}
		return nil, nil
	})
	if err := m.Restore(nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range m.List() {
		got = append(got, in.ID)
	}
	want := []string{"p-first", "p-second", "p-third", "p-fourth"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("rail order after restore = %v, want the saved order %v", got, want)
	}
	// A pane opened after the restore comes last, and the saved order
	// follows what the rail shows.
	in, err := m.Create(Options{Dir: dir, Argv: []string{"/bin/sh"}})
	if err != nil {
		t.Fatal(err)
	}
	specs, _ := st.LoadPanes()
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].Position < specs[j].Position })
	if last := specs[len(specs)-1]; last.ID != in.ID || specs[0].ID != "p-first" {
		t.Fatalf("saved positions = %+v, want p-first first and the new pane %s last", specs, in.ID)
	}
}

// gatedSpecs holds one SavePane in flight until Close deleted the row, as
// a slow database write of the conversation an agent reported while the
// person closes its pane would.
type gatedSpecs struct {
	memSpecs
	hold    chan struct{} // closed by the held SavePane once it runs
	deleted chan struct{} // closed by DeletePane
	held    sync.Once
	del     sync.Once
	armed   bool
}

func (s *gatedSpecs) SavePane(sp Spec) error {
	s.memSpecs.mu.Lock()
	armed := s.armed
	s.armed = false
	s.memSpecs.mu.Unlock()
	if armed {
		s.held.Do(func() { close(s.hold) })
		// With the saves ordered after Close's delete, the delete cannot
		// come while this one waits: wait a while, then write.
		select {
		case <-s.deleted:
		case <-time.After(time.Second):
		}
	}
	return s.memSpecs.SavePane(sp)
}

func (s *gatedSpecs) DeletePane(id string) error {
	err := s.memSpecs.DeletePane(id)
	s.del.Do(func() { close(s.deleted) })
	return err
}

// A conversation reported while its pane closes must not write the pane
// back after Close forgot it: the closed pane would come back, agent and
// all, at the next start.
func TestClosedPaneStaysClosedWhenASaveRaces(t *testing.T) {
	st := &gatedSpecs{hold: make(chan struct{}), deleted: make(chan struct{})}
	m := NewManager(nil)
	defer m.CloseAll()
	m.SetStore(st)
	info, err := m.Create(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh"}, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	st.memSpecs.mu.Lock()
	st.armed = true
	st.memSpecs.mu.Unlock()
	saved := make(chan error, 1)
	go func() { saved <- m.SetSession(info.ID, Session{ID: "conv-1"}) }()
	<-st.hold // the save found the pane open and is writing
	if err := m.Close(info.ID); err != nil {
		t.Fatal(err)
	}
	if err := <-saved; err != nil {
		t.Fatal(err)
	}

	next := NewManager(nil)
	defer next.CloseAll()
	next.SetStore(st)
	if err := next.Restore(nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range next.List() {
		if p.ID == info.ID {
			t.Fatalf("the closed pane %s came back at the next start (session %q)", p.ID, p.Session)
		}
	}
}
