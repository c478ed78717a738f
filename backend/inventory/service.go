package inventory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// Options configure a Service. Zero values mean: the user's real home and
// environment, the real exec runner, a 5 s poll when file notifications
// are unavailable.
type Options struct {
	Env    Env
	Runner Runner
	Poll   time.Duration
	// Runs lists the session ids the app recorded for its own runs (nil:
	// none; SetRunSource sets it later).
	Runs RunSource
}

// Service is what the External agents screen binds: the list, the Apps
// menu, the detail pane, transcript pages and relaunch plans. Its methods
// are safe for concurrent use.
type Service struct {
	ix      *Index
	env     Env
	planner *planner
	poll    time.Duration

	text *textIndex // "search in conversations"

	mu        sync.Mutex
	listeners map[int]func()
	nextID    int
	watch     *watcher
}

// ErrNotFound means no session matches the given key or id.
var ErrNotFound = errors.New("no such session")

// New builds the service over db (nil keeps the cache in memory) and loads
// the cached index. Call Refresh (or Start) to read the stores.
func New(ctx context.Context, db *sql.DB, opts Options) (*Service, error) {
	env := opts.Env
	if env.Home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("finding the home folder: %w", err)
		}
		env.Home = h
		if env.Getenv == nil {
			env.Getenv = os.Getenv
		}
	}
	ix, err := NewIndex(ctx, db, env)
	if err != nil {
		return nil, err
	}
	r := opts.Runner
	if r == nil {
		r = ExecRunner{}
	}
	poll := opts.Poll
	if poll <= 0 {
		poll = 5 * time.Second
	}
	ix.runs.setSource(opts.Runs)
	s := &Service{ix: ix, env: env, planner: &planner{run: r, help: &helpCache{}}, poll: poll, listeners: map[int]func(){}}
	s.text = newTextIndex(ctx, db, s)
	return s, nil
}

// Refresh re-reads what changed and tells the OnChange listeners when the
// list changed.
func (s *Service) Refresh(ctx context.Context) (bool, error) {
	runs := s.syncRuns()
	changed, err := s.ix.Refresh(ctx)
	changed = changed || runs
	if changed {
		s.emit()
	}
	return changed, err
}

// RefreshDirs re-reads what changed in the given store folders only (the
// watcher's narrowed refresh) and tells the OnChange listeners when the
// list changed.
func (s *Service) RefreshDirs(ctx context.Context, dirs []string) (bool, error) {
	runs := s.syncRuns()
	changed, err := s.ix.RefreshDirs(ctx, dirs)
	changed = changed || runs
	if changed {
		s.emit()
	}
	return changed, err
}

// SetRunSource gives the index the app's run table, whose recorded session
// ids mark the app's own runs (the app builds its runs after this service).
func (s *Service) SetRunSource(src RunSource) {
	s.ix.runs.setSource(src)
	if s.syncRuns() {
		s.emit()
	}
}

// syncRuns applies newly recorded run ids to the list; it reports whether
// the list changed. A read put off (one a second at most: the list is
// asked for on every change of every session file) runs a moment later
// and tells the listeners if it changed the list, so a run's id recorded
// just after its last file write still marks it.
func (s *Service) syncRuns() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	changed, later := s.ix.runs.sync(ctx)
	if later {
		time.AfterFunc(runsEvery, func() {
			s.ix.runs.due()
			if s.syncRuns() {
				s.emit()
			}
		})
	}
	if !changed {
		return false
	}
	s.ix.mu.Lock()
	s.ix.rebuild()
	s.ix.mu.Unlock()
	return true
}

// List returns sessions newest first, filtered by app (empty: all) and by a
// case-insensitive substring of title, folder, branch, app name or id.
// Message bodies are not searched. osFoundry's own runs are in it, marked
// OwnRun: the screen decides whether to show them.
func (s *Service) List(query string, app AppID) []Session {
	s.syncRuns()
	q := strings.ToLower(strings.TrimSpace(query))
	s.ix.mu.RLock()
	defer s.ix.mu.RUnlock()
	out := make([]Session, 0, 64)
	for i := range s.ix.sessions {
		ss := &s.ix.sessions[i]
		if app != "" && ss.App != app {
			continue
		}
		if q != "" && !strings.Contains(ss.hay, q) {
			continue
		}
		out = append(out, *ss)
	}
	return out
}

// Count returns how many sessions match, without copying them.
func (s *Service) Count(query string, app AppID) int {
	q := strings.ToLower(strings.TrimSpace(query))
	s.ix.mu.RLock()
	defer s.ix.mu.RUnlock()
	n := 0
	for i := range s.ix.sessions {
		ss := &s.ix.sessions[i]
		if (app == "" || ss.App == app) && (q == "" || strings.Contains(ss.hay, q)) {
			n++
		}
	}
	return n
}

// Apps returns the twelve apps with their session counts and on/off state.
func (s *Service) Apps() []AppInfo {
	s.ix.mu.RLock()
	defer s.ix.mu.RUnlock()
	out := make([]AppInfo, len(AllApps))
	for i, a := range AllApps {
		out[i] = AppInfo{App: a, Name: a.Name(), Enabled: s.ix.enabled[a], Count: s.ix.counts[a], OwnRuns: s.ix.ownRuns[a]}
	}
	return out
}

// SetAppEnabled turns an app on or off; an app that is off is never read,
// also at start-up.
func (s *Service) SetAppEnabled(ctx context.Context, app AppID, on bool) error {
	if err := s.ix.SetEnabled(ctx, app, on); err != nil {
		return err
	}
	if on {
		if _, err := s.ix.Refresh(ctx); err != nil {
			return err
		}
	}
	s.emit()
	return nil
}

// Find resolves a session by key ("claude-code:<id>"), full id, or a unique
// id prefix.
func (s *Service) Find(ref string) (Session, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return Session{}, fmt.Errorf("finding a session: %w (give an id)", ErrNotFound)
	}
	s.ix.mu.RLock()
	defer s.ix.mu.RUnlock()
	if i, ok := s.ix.byKey[ref]; ok {
		return s.ix.sessions[i], nil
	}
	var hits []Session
	for _, ss := range s.ix.sessions {
		if ss.ID == ref {
			return ss, nil
		}
		if strings.HasPrefix(ss.ID, ref) {
			hits = append(hits, ss)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return Session{}, fmt.Errorf("finding %q: %w (run `osfoundry sessions find` to see ids)", cleanText(ref, 60), ErrNotFound)
	}
	return Session{}, fmt.Errorf("finding %q: %d sessions start with it; give more of the id", cleanText(ref, 60), len(hits))
}

// Detail returns the recorded metadata of one session.
func (s *Service) Detail(ref string) (Detail, error) {
	ss, err := s.Find(ref)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Session: ss, StaysInApp: StaysInApp(ss.App)}
	add := func(label, v string) {
		if v != "" {
			d.Fields = append(d.Fields, Field{Label: label, Value: cleanText(v, 300)})
		}
	}
	add("App", ss.AppName)
	add("Session id", ss.ID)
	if ss.ResumeID != ss.ID {
		add("Claude Code session", ss.ResumeID)
	}
	add("Folder", ss.Folder)
	add("Branch", ss.Branch)
	add("Model", ss.Model)
	add("Effort", ss.Effort)
	add("Approval mode", ss.Mode)
	add("Sandbox", ss.Sandbox)
	add("Version", ss.Version)
	if ss.OwnRun {
		add("osFoundry run", ss.RunWhy)
	}
	if ss.UpdatedMs > 0 {
		add("Last used", time.UnixMilli(ss.UpdatedMs).Format(time.RFC3339))
		if ss.TimeFrom == TimeFile {
			add("Time from", "the file's time: the session records none")
		}
	}
	add("Read from", ss.Path)
	if ss.Archived {
		add("Archived", "yes")
	}
	return d, nil
}

// Transcript returns one page of a session's conversation, starting at
// cursor (0 for the first page; then Page.Next). Only this session's file
// is read, progressively, never whole.
func (s *Service) Transcript(ctx context.Context, ref string, cursor int64, limit int) (Page, error) {
	ss, err := s.Find(ref)
	if err != nil {
		return Page{}, err
	}
	if limit <= 0 || limit > 2000 {
		limit = 200
	}
	for _, a := range s.ix.adapters {
		for _, app := range a.Apps() {
			if app == ss.App {
				return a.Transcript(ctx, s.env, ss, cursor, limit)
			}
		}
	}
	return Page{}, fmt.Errorf("reading %s: no reader for %s", ss.Key, ss.App)
}

// PlanResume builds the relaunch of a session ("Open in Terminal"): folder,
// argv, warnings and the branch check. Errors wrap ErrFolderMissing,
// ErrNotResumable, ErrUnsafeValue or ErrNotFound.
func (s *Service) PlanResume(ctx context.Context, ref string, opts PlanOptions) (Plan, error) {
	ss, err := s.Find(ref)
	if err != nil {
		return Plan{}, err
	}
	return s.planner.plan(ctx, ss, opts)
}

// ContinueArgv builds "Continue here" for a Claude Code or Codex session:
// `claude -p --resume <id> --fork-session` or `codex exec fork <id>`, run in the
// session's folder with the prompt on stdin.
func (s *Service) ContinueArgv(ctx context.Context, ref string) ([]string, error) {
	ss, err := s.Find(ref)
	if err != nil {
		return nil, err
	}
	return s.planner.continueArgv(ctx, ss)
}

// OnChange registers fn to run (on a background goroutine) whenever the
// list changes; the returned function unregisters it.
func (s *Service) OnChange(fn func()) (unsubscribe func()) {
	s.mu.Lock()
	id := s.nextID
	s.nextID++
	s.listeners[id] = fn
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.listeners, id)
		s.mu.Unlock()
	}
}

func (s *Service) emit() {
	s.mu.Lock()
	fns := make([]func(), 0, len(s.listeners))
	ids := make([]int, 0, len(s.listeners))
	for id := range s.listeners {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		fns = append(fns, s.listeners[id])
	}
	s.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
	s.text.changed()
}

// TextStatus says whether "search in conversations" is on and how far its
// index is.
func (s *Service) TextStatus() TextStatus { return s.text.status() }

// SetTextSearch turns "search in conversations" on (the index is built in
// the background) or off (the index is dropped). Errors wrap ErrNoTextIndex
// when there is no database.
func (s *Service) SetTextSearch(ctx context.Context, on bool) (TextStatus, error) {
	return s.text.set(ctx, on)
}

// SearchText returns the sessions whose indexed conversation contains
// query (case-insensitive, at least MinTextQuery characters; none while
// the search is off).
func (s *Service) SearchText(ctx context.Context, query string) ([]TextHit, error) {
	return s.text.search(ctx, query, 500)
}

// OnTextProgress registers the one function told of the index's progress
// (the app emits it to the window).
func (s *Service) OnTextProgress(fn func(TextStatus)) {
	s.text.mu.Lock()
	s.text.emit = fn
	s.text.mu.Unlock()
}

// Ago formats how long ago t was, the way list rows show it ("6d ago").
func Ago(now time.Time, ms int64) string {
	if ms <= 0 {
		return "-"
	}
	d := now.Sub(time.UnixMilli(ms))
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 60*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return time.UnixMilli(ms).Format("2006-01-02")
}
