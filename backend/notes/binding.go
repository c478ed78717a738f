package notes

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// EventChanged is emitted after every committed change to a Note — an
// agent's tool call, another window's or command's write, the person's own
// save — so an open editor can follow without polling the whole Note.
const EventChanged = "notes:changed"

// ChangedEvent is EventChanged's payload.
type ChangedEvent struct {
	NoteID  string `json:"note_id"`
	Version int64  `json:"version"`
}

// Emitter sends an event to the window (wailsui.Emitter in the app).
type Emitter interface {
	Emit(event string, payload any)
}

type noEmitter struct{}

func (noEmitter) Emit(string, any) {}

// DefaultWorkspace is the workspace the app creates on first start so the
// Notes screen and the per-run bridge (bound to "default") share one.
const DefaultWorkspace = "default"

// watchEvery is how often the binding looks for commits made by other
// processes (a headless `osfoundry bridge` run, `osfoundry notes tool`).
// In-process writes are announced at once through OnChange.
const watchEvery = 700 * time.Millisecond

// Watcher announces every Note change as EventChanged: in-process commits
// at once (Notes.OnChange), other processes' commits within watchEvery.
// It is not bound to the window; the app starts and stops it.
type Watcher struct {
	db     *sql.DB // polled for other processes' commits (SQLite's data_version)
	notes  *Notes
	places *Places
	emit   Emitter

	mu    sync.Mutex
	seen  map[string]int64 // note id → last version announced
	stop  context.CancelFunc
	done  chan struct{}
	unsub func()
}

// NewWatcher returns a Watcher over s; emit nil drops events.
func NewWatcher(s *Store, emit Emitter) *Watcher {
	if emit == nil {
		emit = noEmitter{}
	}
	return &Watcher{db: s.db, notes: s.Notes, places: s.Places, emit: emit, seen: map[string]int64{}}
}

// Start makes sure the default workspace exists, announces in-process
// changes and starts watching for other processes' commits. Stop ends it.
func (b *Watcher) Start() error {
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.ensureDefaultWorkspace(ctx); err != nil {
		cancel()
		return err
	}
	b.mu.Lock()
	b.stop, b.done = cancel, make(chan struct{})
	b.mu.Unlock()
	b.unsub = b.notes.OnChange(b.announce)
	go b.watch(ctx, b.done)
	return nil
}

// Stop ends Start's subscription and watcher.
func (b *Watcher) Stop() {
	b.mu.Lock()
	stop, done := b.stop, b.done
	b.stop = nil
	b.mu.Unlock()
	if stop == nil {
		return
	}
	b.unsub()
	stop()
	<-done
}

func (b *Watcher) ensureDefaultWorkspace(ctx context.Context) error {
	ws, err := b.places.ListWorkspaces(ctx)
	if err != nil {
		return fmt.Errorf("starting notes: %w", err)
	}
	if len(ws) > 0 {
		return nil
	}
	if _, err := b.places.CreateWorkspace(ctx, DefaultWorkspace, "Personal"); err != nil {
		return fmt.Errorf("starting notes: %w", err)
	}
	return nil
}

// announce emits EventChanged once per (note, version): the watcher sees
// in-process commits too and must not repeat them.
func (b *Watcher) announce(noteID string, version int64) {
	b.mu.Lock()
	if b.seen[noteID] >= version {
		b.mu.Unlock()
		return
	}
	b.seen[noteID] = version
	b.mu.Unlock()
	b.emit.Emit(EventChanged, ChangedEvent{NoteID: noteID, Version: version})
}

// watch polls PRAGMA data_version on one held connection: it changes only
// when another connection committed, so an idle app runs one tiny pragma
// per tick. On a change it reads the Notes touched since the last look.
func (b *Watcher) watch(ctx context.Context, done chan struct{}) {
	defer close(done)
	conn, err := b.db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	var last int64 = -1
	since := ""
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		var dv int64
		if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&dv); err == nil && dv != last {
			if since, err = b.scan(ctx, conn, since, last == -1); err == nil {
				last = dv
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// scan announces Notes updated at or after since (first: only record them)
// and returns the newest updated_at seen.
func (b *Watcher) scan(ctx context.Context, q querier, since string, first bool) (string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, version, updated_at FROM notes WHERE updated_at >= ?`, rescanFrom(since))
	if err != nil {
		return since, err
	}
	defer rows.Close()
	type change struct {
		id string
		v  int64
	}
	var changed []change
	newest := since
	for rows.Next() {
		var c change
		var upd string
		if err := rows.Scan(&c.id, &c.v, &upd); err != nil {
			return since, err
		}
		if upd > newest {
			newest = upd
		}
		changed = append(changed, c)
	}
	if err := rows.Err(); err != nil {
		return since, err
	}
	for _, c := range changed {
		if first {
			b.mu.Lock()
			if b.seen[c.id] < c.v {
				b.seen[c.id] = c.v
			}
			b.mu.Unlock()
			continue
		}
		b.announce(c.id, c.v)
	}
	return newest, nil
}

// Binding is the Notes screen's bound service: ctx-free methods returning
// concrete types, over the Notes, Places and Drafts services.
type Binding struct {
	places  *Places
	notes   *Notes
	drafts  *Drafts
	w       *Watcher
	timeout time.Duration
}

// NewBinding returns the Notes screen's service over s. w (may be nil)
// announces the Notes it creates.
func NewBinding(s *Store, w *Watcher) *Binding {
	if w == nil {
		w = NewWatcher(s, nil)
	}
	return &Binding{places: s.Places, notes: s.Notes, drafts: s.Drafts, w: w, timeout: 30 * time.Second}
}

func (b *Binding) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), b.timeout)
}

// Overview is everything the Notes list shows.
type Overview struct {
	Workspaces []Workspace `json:"workspaces"`
	Projects   []Project   `json:"projects"`
	Notes      []NoteInfo  `json:"notes"`
}

// Overview lists every workspace with its projects and Notes (most
// recently changed first).
func (b *Binding) Overview() (Overview, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	ws, err := b.places.ListWorkspaces(ctx)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{Workspaces: ws, Projects: []Project{}, Notes: []NoteInfo{}}
	for _, w := range ws {
		ps, err := b.places.ListProjects(ctx, w.ID)
		if err != nil {
			return Overview{}, err
		}
		ns, err := b.notes.ListNotes(ctx, w.ID, "")
		if err != nil {
			return Overview{}, err
		}
		o.Projects = append(o.Projects, ps...)
		o.Notes = append(o.Notes, ns...)
	}
	return o, nil
}

// GetNote returns a Note with every tab's content.
func (b *Binding) GetNote(noteID string) (Note, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.notes.GetNote(ctx, noteID)
}

// CreateNote creates a Note with one empty text tab; project "" leaves it
// outside any project.
func (b *Binding) CreateNote(workspace, project, title string) (Note, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	n, err := b.notes.CreateNote(ctx, NewNote{Workspace: workspace, Project: project, Title: title})
	if err != nil {
		return Note{}, err
	}
	b.w.announce(n.ID, n.Version)
	return n, nil
}

// CreateProject creates a project in workspace.
func (b *Binding) CreateProject(workspace, name string) (Project, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.places.CreateProject(ctx, workspace, "", name)
}

// SaveText saves a text tab if the Note is still at expectedVersion; on a
// conflict nothing is written and the result carries the tab as it is now.
func (b *Binding) SaveText(noteID, tabID string, expectedVersion int64, text string) (SaveResult, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.notes.SaveTabAsPerson(ctx, noteID, tabID, expectedVersion, text)
}

// SaveSheet saves a whole Sheet tab (the grid's save) under the same rule.
func (b *Binding) SaveSheet(noteID, tabID string, expectedVersion int64, sheet SheetData) (SaveResult, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	data, err := json.Marshal(sheet)
	if err != nil {
		return SaveResult{}, fmt.Errorf("encoding sheet: %w", err)
	}
	return b.notes.SaveTabAsPerson(ctx, noteID, tabID, expectedVersion, string(data))
}

// AddTabResult is AddTab's outcome: Tab is set when Result.Saved.
type AddTabResult struct {
	Result SaveResult `json:"result"`
	Tab    TabInfo    `json:"tab"`
}

// AddTab adds an empty text, sheet or slides tab if the Note is still at
// expectedVersion.
func (b *Binding) AddTab(noteID string, expectedVersion int64, kind, title string) (AddTabResult, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	r, t, err := b.notes.AddTabAsPerson(ctx, noteID, expectedVersion, kind, title)
	if err != nil {
		return AddTabResult{}, err
	}
	return AddTabResult{Result: r, Tab: t}, nil
}
