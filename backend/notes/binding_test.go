package notes

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// events records what a Watcher emits.
type events struct {
	mu  sync.Mutex
	got []ChangedEvent
	ch  chan ChangedEvent
}

func newEvents() *events { return &events{ch: make(chan ChangedEvent, 100)} }

func (e *events) Emit(name string, payload any) {
	if name != EventChanged {
		return
	}
	ev := payload.(ChangedEvent)
	e.mu.Lock()
	e.got = append(e.got, ev)
	e.mu.Unlock()
	e.ch <- ev
}

// next waits for the next event; the long deadline only stops a broken
// test from hanging, it is not a speed assertion.
func (e *events) next(t *testing.T) ChangedEvent {
	t.Helper()
	select {
	case ev := <-e.ch:
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no notes:changed event")
		return ChangedEvent{}
	}
}

func startWatcher(t *testing.T, f *fixture) (*events, *Binding) {
	t.Helper()
	ev := newEvents()
	w := NewWatcher(f.s, ev)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return ev, NewBinding(f.s, w)
}

func TestWatcherAnnouncesPersonAndAgentWritesOnce(t *testing.T) {
	f := newFixture(t, Options{})
	ev, b := startWatcher(t, f)

	r, err := b.SaveText("note-1", f.tab, 1, "person")
	if err != nil || !r.Saved || r.Version != 2 {
		t.Fatalf("save: %+v %v", r, err)
	}
	if got := ev.next(t); got != (ChangedEvent{"note-1", 2}) {
		t.Fatalf("event after the person's save = %+v", got)
	}
	args := edit(2, "key-binding-1", "agent")
	args["tab_id"] = f.tab
	if res := f.call(ToolEditNoteTab, args); res.IsError {
		t.Fatal(res.Text)
	}
	if got := ev.next(t); got != (ChangedEvent{"note-1", 3}) {
		t.Fatalf("event after the agent's edit = %+v", got)
	}
	// The poller also sees these commits (other pool connections); give it
	// a few ticks and check nothing was announced twice.
	time.Sleep(3 * watchEvery)
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(ev.got) != 2 {
		t.Fatalf("events = %+v, want exactly versions 2 and 3 once each", ev.got)
	}
}

func TestWatcherSeesOtherProcessWrites(t *testing.T) {
	f := newFixture(t, Options{})
	ev, _ := startWatcher(t, f)
	// A second database handle on the same file is what a headless
	// `osfoundry bridge` run or `osfoundry notes tool` is: its commits
	// never reach this store's OnChange.
	db2, err := store.Open(filepath.Join(f.dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	other, err := Open(db2, filepath.Join(f.dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * watchEvery) // let the watcher record the starting state
	if r, err := other.SaveTabAsPerson(context.Background(), "note-1", f.tab, 1, "from elsewhere"); err != nil || !r.Saved {
		t.Fatalf("other save: %+v %v", r, err)
	}
	if got := ev.next(t); got != (ChangedEvent{"note-1", 2}) {
		t.Fatalf("event = %+v, want note-1 version 2", got)
	}
	n, err := other.CreateNote(context.Background(), NewNote{Workspace: "ws-1", Title: "made elsewhere"})
	if err != nil {
		t.Fatal(err)
	}
	if got := ev.next(t); got.NoteID != n.ID {
		t.Fatalf("event = %+v, want the new note %s", got, n.ID)
	}
}

func TestWatcherCreatesDefaultWorkspaceOnlyWhenNone(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := Open(db, filepath.Join(dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatcher(s, nil)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	w.Stop()
	w.Stop() // a second Stop is harmless
	o, err := NewBinding(s, nil).Overview()
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Workspaces) != 1 || o.Workspaces[0].ID != DefaultWorkspace {
		t.Fatalf("workspaces = %+v, want the default one", o.Workspaces)
	}

	f := newFixture(t, Options{})
	startWatcher(t, f)
	o, err = NewBinding(f.s, nil).Overview()
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Workspaces) != 1 || o.Workspaces[0].ID != "ws-1" || len(o.Notes) != 1 || len(o.Projects) != 1 {
		t.Fatalf("overview = %+v, want only the existing workspace, its project and note", o)
	}
}

func TestBindingSavesConditionally(t *testing.T) {
	f := newFixture(t, Options{})
	_, b := startWatcher(t, f)

	n, err := b.CreateNote("ws-1", "proj-a", "Pricing")
	if err != nil || len(n.Tabs) != 1 || n.Version != 1 {
		t.Fatalf("create: %+v %v", n, err)
	}
	add, err := b.AddTab(n.ID, 1, KindSheet, "Numbers")
	if err != nil || !add.Result.Saved || add.Tab.Kind != KindSheet {
		t.Fatalf("add tab: %+v %v", add, err)
	}
	full, err := b.GetNote(n.ID)
	if err != nil {
		t.Fatal(err)
	}
	sheet := *full.Tabs[1].Sheet
	sheet.Sheets[0].Cells = [][]any{{"plan", "price"}, {"pro", 12.5}}
	r, err := b.SaveSheet(n.ID, add.Tab.ID, add.Result.Version, sheet)
	if err != nil || !r.Saved || r.Version != add.Result.Version+1 {
		t.Fatalf("save sheet: %+v %v", r, err)
	}
	// A stale editor (still at the version before the sheet save) is refused
	// and told what the tab holds now.
	stale, err := b.SaveText(n.ID, n.Tabs[0].ID, add.Result.Version, "mine")
	if err != nil || stale.Saved || stale.Current == nil || *stale.Current.Text != "" || stale.Version != r.Version {
		t.Fatalf("stale save: %+v %v", stale, err)
	}
	if _, err := b.CreateNote("ws-1", "", " "); err == nil {
		t.Fatal("an empty title must be refused")
	}
	if _, err := b.CreateProject("no-such-ws", "x"); err == nil {
		t.Fatal("a project in a missing workspace must be refused")
	}
}
