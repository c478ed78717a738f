package inventory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"sync"

	"github.com/osfoundry/desktop/backend/store"
)

// Component is this package's schema name in the app database.
const Component = "inventory"

var migrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE inventory_units (
	path     TEXT PRIMARY KEY,
	adapter  TEXT NOT NULL,
	size     INTEGER NOT NULL,
	mtime_ns INTEGER NOT NULL,
	sessions TEXT NOT NULL
);
CREATE TABLE inventory_apps (
	app     TEXT PRIMARY KEY,
	enabled INTEGER NOT NULL
);`}, {Version: 2, SQL: `
-- Sessions cached before they carried their recorded times and the marks
-- of osFoundry's own runs: read them again.
DELETE FROM inventory_units;`}, {Version: 3, SQL: textMigration}}

// Migrate creates the index cache and the Apps setting tables.
func Migrate(ctx context.Context, db *sql.DB) error {
	return store.Migrate(ctx, db, Component, migrations)
}

// storedSession is a Session with the unexported fields the merge needs.
type storedSession struct {
	Session
	Originator string `json:"originator,omitempty"`
	Priority   int    `json:"priority,omitempty"`
}

type cachedUnit struct {
	Unit
	adapter  string
	sessions []Session
	blob     []byte // sessions as persist stores them, when already encoded
}

// Index keeps the session list, re-reading only the units whose identity
// (path, size, mtime) changed. With a database it persists that cache and
// the Apps setting; without one (tests, --home runs) it lives in memory.
type Index struct {
	db       *sql.DB
	env      Env
	adapters []Adapter

	refreshMu sync.Mutex

	mu       sync.RWMutex
	units    map[string]*cachedUnit
	enabled  map[AppID]bool
	sessions []Session
	byKey    map[string]int
	counts   map[AppID]int
	ownRuns  map[AppID]int

	runs knownRuns
}

func adapterName(a Adapter) string { return string(a.Apps()[0]) }

// NewIndex loads the cache and the Apps setting from db (which may be nil).
func NewIndex(ctx context.Context, db *sql.DB, env Env) (*Index, error) {
	ix := &Index{db: db, env: env, adapters: adapters(), units: map[string]*cachedUnit{},
		enabled: map[AppID]bool{}, byKey: map[string]int{}, counts: map[AppID]int{}, ownRuns: map[AppID]int{}}
	for _, a := range AllApps {
		ix.enabled[a] = true
	}
	if db == nil {
		return ix, nil
	}
	if err := Migrate(ctx, db); err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT app, enabled FROM inventory_apps`)
	if err != nil {
		return nil, fmt.Errorf("loading the Apps setting: %w", err)
	}
	for rows.Next() {
		var app string
		var on bool
		if err := rows.Scan(&app, &on); err != nil {
			rows.Close()
			return nil, fmt.Errorf("loading the Apps setting: %w", err)
		}
		ix.enabled[AppID(app)] = on
	}
	rows.Close()
	rows, err = db.QueryContext(ctx, `SELECT path, adapter, size, mtime_ns, sessions FROM inventory_units`)
	if err != nil {
		return nil, fmt.Errorf("loading the session index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c cachedUnit
		var blob string
		if err := rows.Scan(&c.Path, &c.adapter, &c.Size, &c.MtimeNs, &blob); err != nil {
			return nil, fmt.Errorf("loading the session index: %w", err)
		}
		var stored []storedSession
		if json.Unmarshal([]byte(blob), &stored) != nil {
			continue // re-read on the next refresh
		}
		for _, s := range stored {
			s.Session.originator, s.Session.priority = s.Originator, s.Priority
			c.sessions = append(c.sessions, s.Session)
		}
		ix.units[c.Path] = &c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("loading the session index: %w", err)
	}
	ix.rebuild()
	return ix, nil
}

func (ix *Index) adapterOn(a Adapter) bool {
	for _, app := range a.Apps() {
		if ix.enabled[app] {
			return true
		}
	}
	return false
}

// Refresh stats every enabled store and re-reads what changed. It reports
// whether the list changed.
func (ix *Index) Refresh(ctx context.Context) (bool, error) { return ix.refresh(ctx, nil) }

// RefreshDirs is Refresh narrowed to the folders in dirs (where the watcher
// saw changes): stores that can list one folder re-stat only those; the
// others are listed whole. Sessions elsewhere are left as they are.
func (ix *Index) RefreshDirs(ctx context.Context, dirs []string) (bool, error) {
	if len(dirs) == 0 {
		return false, nil
	}
	return ix.refresh(ctx, dirs)
}

// refresh lists every enabled store (dirs nil) or the parts of them under
// dirs, and re-reads what changed.
func (ix *Index) refresh(ctx context.Context, dirs []string) (bool, error) {
	ix.refreshMu.Lock() // one refresh at a time: a second would redo the same reads
	defer ix.refreshMu.Unlock()
	ix.mu.RLock()
	enabled := make(map[AppID]bool, len(ix.enabled))
	for k, v := range ix.enabled {
		enabled[k] = v
	}
	ix.mu.RUnlock()
	changed := map[string]*cachedUnit{} // path → new unit (nil: removed)
	ix.mu.RLock()
	seen := make(map[string]bool, len(ix.units)+64)
	ix.mu.RUnlock()
	scopes := map[string]scope{}
	rd := newReader(ctx, ix.env, ix.db != nil)
	for _, l := range ix.listStale(ctx, enabled, dirs, rd) {
		if l.sc.none() {
			continue
		}
		scopes[l.name] = l.sc
		if l.err != nil {
			rd.wait()
			return false, fmt.Errorf("listing %s sessions: %w", l.a.Apps()[0].Name(), l.err)
		}
		for _, u := range l.units {
			seen[u.Path] = true
		}
	}
	jobs := rd.wait()
	if err := ctx.Err(); err != nil {
		return false, err
	}
	for _, j := range jobs {
		if errors.Is(j.err, fs.ErrNotExist) {
			continue // vanished between listing and reading
		}
		// A per-file read error (a torn file, a locked database) is kept as
		// an empty unit under this identity, so an unreadable file costs one
		// read, not one per refresh; the rest still lists.
		changed[j.u.Path] = &cachedUnit{Unit: j.u, adapter: j.name, sessions: j.sessions, blob: j.blob}
	}
	ix.mu.Lock()
	for p, c := range ix.units {
		if !seen[p] && (dirs == nil || scopes[c.adapter].covers(p)) {
			changed[p] = nil
		}
	}
	if len(changed) == 0 {
		ix.mu.Unlock()
		return false, nil
	}
	for p, c := range changed {
		if c == nil {
			delete(ix.units, p)
		} else {
			ix.units[p] = c
		}
	}
	// The database write and the rebuild of the list only read the new
	// units: each runs on its own core.
	saved := make(chan error, 1)
	go func() { saved <- ix.persist(ctx, changed) }()
	ix.rebuild()
	ix.mu.Unlock()
	if err := <-saved; err != nil {
		return true, err
	}
	return true, nil
}

// readJob is one stale file of one adapter, and what reading it gave.
type readJob struct {
	a        Adapter
	name     string
	u        Unit
	sessions []Session
	blob     []byte
	err      error
}

// reader reads stale files while the stores are still being listed, on
// as many goroutines as there are CPUs (at most 4): a cold index reads
// dozens to thousands of files, each read is independent, and listing the
// next store is mostly waiting on system calls, so neither the list nor a
// second core waits for the other. Workers start with the first job; a
// refresh that finds nothing changed starts none.
type reader struct {
	ctx     context.Context
	env     Env
	encode  bool       // encode each result for the database on the worker too
	mu      sync.Mutex // add is called by each store's listing at once
	jobs    []*readJob
	queue   chan *readJob
	wg      sync.WaitGroup
	started bool
}

func newReader(ctx context.Context, env Env, encode bool) *reader {
	return &reader{ctx: ctx, env: env, encode: encode}
}

// add queues j for reading.
func (r *reader) add(j *readJob) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started {
		r.started = true
		r.queue = make(chan *readJob, 256)
		for range min(runtime.GOMAXPROCS(0), 4) {
			r.wg.Go(r.work)
		}
	}
	r.jobs = append(r.jobs, j)
	r.queue <- j
}

func (r *reader) work() {
	for j := range r.queue {
		if r.ctx.Err() != nil {
			j.err = r.ctx.Err()
			continue // drain: the refresh is abandoned
		}
		j.sessions, j.err = j.a.Read(r.ctx, r.env, j.u)
		if j.err != nil {
			j.sessions = nil
		}
		if r.encode {
			j.blob = encodeSessions(j.sessions)
		}
	}
}

// wait returns every queued job once all are read.
func (r *reader) wait() []*readJob {
	if r.started {
		close(r.queue)
		r.wg.Wait()
		r.started = false
	}
	return r.jobs
}

// persist writes changed units to the database in one transaction.
func (ix *Index) persist(ctx context.Context, changed map[string]*cachedUnit) error {
	if ix.db == nil {
		return nil
	}
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving the session index: %w", err)
	}
	defer tx.Rollback()
	put, err := tx.PrepareContext(ctx, `INSERT INTO inventory_units (path, adapter, size, mtime_ns, sessions)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET adapter = excluded.adapter,
		size = excluded.size, mtime_ns = excluded.mtime_ns, sessions = excluded.sessions`)
	if err != nil {
		return fmt.Errorf("saving the session index: %w", err)
	}
	defer put.Close()
	var del *sql.Stmt // prepared at the first removal: a cold index has none
	for p, c := range changed {
		if c == nil {
			if del == nil {
				if del, err = tx.PrepareContext(ctx, `DELETE FROM inventory_units WHERE path = ?`); err != nil {
					return fmt.Errorf("saving the session index: %w", err)
				}
				defer del.Close()
			}
			if _, err := del.ExecContext(ctx, p); err != nil {
				return fmt.Errorf("saving the session index: %w", err)
			}
			continue
		}
		blob := c.blob
		if blob == nil {
			blob = encodeSessions(c.sessions)
		}
		if _, err := put.ExecContext(ctx, p, c.adapter, c.Size, c.MtimeNs, string(blob)); err != nil {
			return fmt.Errorf("saving the session index: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("saving the session index: %w", err)
	}
	return nil
}

// encodeSessions is a unit's sessions as the database stores them.
func encodeSessions(ss []Session) []byte {
	stored := make([]storedSession, len(ss))
	for i, s := range ss {
		stored[i] = storedSession{Session: s, Originator: s.originator, Priority: s.priority}
	}
	blob, _ := json.Marshal(stored)
	return blob
}

// rebuild recomputes the list from the cached units; callers hold mu.
func (ix *Index) rebuild() {
	per := map[string][]Session{}
	for _, c := range ix.units {
		per[c.adapter] = append(per[c.adapter], c.sessions...)
	}
	var all []Session
	claimed := map[string]bool{} // Claude Code ids that a Claude app record covers
	for _, a := range ix.adapters {
		ss := per[adapterName(a)]
		if m, ok := a.(merger); ok && len(ss) > 0 {
			ss = m.Merge(ss)
		}
		for _, s := range ss {
			if !ix.enabled[s.App] || s.ID == "" {
				continue
			}
			ix.runs.apply(&s)
			s.finish()
			if s.App == ClaudeApp {
				claimed[s.ResumeID] = true
			}
			all = append(all, s)
		}
	}
	out := all[:0]
	for _, s := range all {
		if s.App == ClaudeCode && claimed[s.ID] {
			continue // the same conversation, listed once under the Claude app
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].UpdatedMs != out[j].UpdatedMs {
			return out[i].UpdatedMs > out[j].UpdatedMs
		}
		return out[i].Key < out[j].Key
	})
	ix.sessions = out
	ix.byKey = make(map[string]int, len(out))
	ix.counts = map[AppID]int{}
	ix.ownRuns = map[AppID]int{}
	for i, s := range out {
		ix.byKey[s.Key] = i
		ix.counts[s.App]++
		if s.OwnRun {
			ix.ownRuns[s.App]++
		}
	}
}

// snapshot copies the list as it is (no re-read of anything).
func (ix *Index) snapshot() []Session {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return append([]Session(nil), ix.sessions...)
}

// SetEnabled turns an app on or off and persists it. Turning an app off
// drops its cached sessions at once; its store is not read again.
func (ix *Index) SetEnabled(ctx context.Context, app AppID, on bool) error {
	if !app.Known() {
		return fmt.Errorf("setting app %q: unknown app; known: %v", app, AllApps)
	}
	if ix.db != nil {
		if _, err := ix.db.ExecContext(ctx, `INSERT INTO inventory_apps (app, enabled) VALUES (?, ?)
			ON CONFLICT(app) DO UPDATE SET enabled = excluded.enabled`, string(app), on); err != nil {
			return fmt.Errorf("saving the Apps setting: %w", err)
		}
	}
	ix.mu.Lock()
	ix.enabled[app] = on
	var gone map[string]*cachedUnit
	for _, a := range ix.adapters {
		if ix.adapterOn(a) {
			continue
		}
		for p, c := range ix.units {
			if c.adapter == adapterName(a) {
				if gone == nil {
					gone = map[string]*cachedUnit{}
				}
				gone[p] = nil
				delete(ix.units, p)
			}
		}
	}
	ix.rebuild()
	ix.mu.Unlock()
	if gone != nil {
		return ix.persist(ctx, gone)
	}
	return nil
}
