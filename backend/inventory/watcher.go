package inventory

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watcher refreshes the index when a store changes: file-system
// notifications on the store folders (debounced, since an agent appends to
// its transcript many times a second), plus a slower poll that also covers
// systems where notifications are unavailable or a folder appears later.
type watcher struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// debounce is how long the watcher waits after the last event before
// refreshing: one refresh per burst of appends.
const debounce = 250 * time.Millisecond

// maxNarrowDirs: past this many changed folders a whole refresh is as cheap.
const maxNarrowDirs = 64

// maxWatches bounds the folders watched; past it the poll keeps the list fresh.
const maxWatches = 4096

// Start refreshes once and then keeps the list live until ctx ends or
// Close is called. OnChange listeners hear every change.
func (s *Service) Start(ctx context.Context) error {
	if _, err := s.Refresh(ctx); err != nil && ctx.Err() != nil {
		return err
	}
	s.text.start() // when the person turned it on before
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watch != nil {
		return nil
	}
	wctx, cancel := context.WithCancel(ctx)
	w := &watcher{cancel: cancel, done: make(chan struct{})}
	s.watch = w
	go s.loop(wctx, w)
	return nil
}

// Close stops the watcher.
func (s *Service) Close() {
	s.mu.Lock()
	w := s.watch
	s.watch = nil
	s.mu.Unlock()
	if w != nil {
		w.cancel()
		<-w.done
	}
	s.text.stop()
	clearSnapshots()
}

func (s *Service) loop(ctx context.Context, w *watcher) {
	defer close(w.done)
	fw, err := fsnotify.NewWatcher()
	var events chan fsnotify.Event
	if err == nil {
		defer fw.Close()
		events = fw.Events
		s.addWatches(fw)
		go func() { // drain errors (overflow and the like); the poll covers them
			for range fw.Errors {
			}
		}()
	}
	poll := time.NewTicker(s.poll)
	defer poll.Stop()
	var fire <-chan time.Time
	var timer *time.Timer
	// The folders events came from since the last refresh; newDir is set
	// when a folder appeared (it needs a watch and a whole listing).
	pending := map[string]bool{}
	newDir := false
	for {
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			pending[filepath.Dir(ev.Name)] = true
			if ev.Has(fsnotify.Create) && isDir(ev.Name) {
				newDir = true
			}
			if timer == nil {
				timer = time.NewTimer(debounce)
			} else {
				timer.Reset(debounce)
			}
			fire = timer.C
		case <-fire:
			fire = nil
			if newDir || len(pending) > maxNarrowDirs {
				_, _ = s.Refresh(ctx)
				s.addWatches(fw) // new project or date folders
			} else {
				dirs := make([]string, 0, len(pending))
				for d := range pending {
					dirs = append(dirs, d)
				}
				_, _ = s.RefreshDirs(ctx, dirs)
			}
			clear(pending)
			newDir = false
		case <-poll.C:
			_, _ = s.Refresh(ctx)
			if fw != nil {
				s.addWatches(fw)
			}
		}
	}
}

// addWatches watches each enabled store's roots and their sub-folders three
// levels down (project folders, Codex YYYY/MM/DD folders). Adding a watch
// twice is harmless.
func (s *Service) addWatches(fw *fsnotify.Watcher) {
	s.ix.mu.RLock()
	var roots []string
	for _, a := range s.ix.adapters {
		if s.ix.adapterOn(a) {
			roots = append(roots, a.Roots(s.env)...)
		}
	}
	s.ix.mu.RUnlock()
	n := 0
	var add func(dir string, depth int)
	add = func(dir string, depth int) {
		if n >= maxWatches {
			return
		}
		if fw.Add(dir) == nil {
			n++
		}
		if depth < 3 {
			for _, d := range listDirs(dir) {
				add(d, depth+1)
			}
		}
	}
	for _, r := range roots {
		if isDir(r) {
			add(r, 0)
		}
	}
}
