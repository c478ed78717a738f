package inventory

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Narrowed refreshes: the watcher knows which folders changed, so a burst
// of appends to one transcript re-stats that project folder, not every
// transcript on the machine.

// dirLister is implemented by stores that can list the units of one of
// their folders. ok is false when dir is not a folder it can list alone
// (the store root itself: a project folder came or went); the store is
// then listed whole.
type dirLister interface {
	UnitsIn(env Env, dir string) (units []Unit, ok bool)
}

// scope says which cached units a refresh listed, so only those can be
// found missing: all of the store's, or the ones directly in some folders.
type scope struct {
	all  bool
	dirs map[string]bool
}

func (s scope) none() bool { return !s.all && len(s.dirs) == 0 }

func (s scope) covers(path string) bool { return s.all || s.dirs[filepath.Dir(path)] }

// listing is one store's listing in a refresh.
type listing struct {
	a     Adapter
	name  string
	units []Unit
	sc    scope
	err   error
}

// listStale lists every enabled store and queues each one's new or
// changed files on rd as soon as it is listed. A whole refresh lists the
// stores at once, each on its own goroutine: listing is mostly waiting on
// system calls, and one store after the other left a core idle at the
// start of every cold index. A narrowed refresh lists one folder or two,
// cheaper than starting the goroutines.
func (ix *Index) listStale(ctx context.Context, enabled map[AppID]bool, dirs []string, rd *reader) []listing {
	out := make([]listing, len(ix.adapters))
	var wg sync.WaitGroup
	start := wg.Go
	if dirs != nil {
		start = func(f func()) { f() }
	}
	for i, a := range ix.adapters {
		if !slices.ContainsFunc(a.Apps(), func(app AppID) bool { return enabled[app] }) {
			continue // never read, not even listed
		}
		start(func() {
			l := &out[i]
			l.a, l.name = a, adapterName(a)
			l.units, l.sc, l.err = ix.listUnits(ctx, a, dirs)
			if l.sc.none() || l.err != nil {
				return
			}
			var stale []Unit
			ix.mu.RLock()
			for _, u := range l.units {
				old := ix.units[u.Path]
				if old == nil || old.Size != u.Size || old.MtimeNs != u.MtimeNs || old.adapter != l.name {
					stale = append(stale, u)
				}
			}
			ix.mu.RUnlock()
			for _, u := range stale {
				rd.add(&readJob{a: a, name: l.name, u: u})
			}
		})
	}
	wg.Wait()
	return out
}

// listUnits lists adapter a whole (dirs nil), or narrowed to dirs.
func (ix *Index) listUnits(ctx context.Context, a Adapter, dirs []string) ([]Unit, scope, error) {
	if dirs == nil {
		units, err := a.Units(ctx, ix.env)
		return units, scope{all: true}, err
	}
	var mine []string
	for _, d := range dirs {
		for _, r := range a.Roots(ix.env) {
			if within(r, d) {
				mine = append(mine, d)
				break
			}
		}
	}
	if len(mine) == 0 {
		return nil, scope{}, nil
	}
	if dl, ok := a.(dirLister); ok {
		if units, sc, ok := unitsInDirs(dl, ix.env, mine); ok {
			return units, sc, nil
		}
	}
	units, err := a.Units(ctx, ix.env)
	return units, scope{all: true}, err
}

// unitsInDirs lists each folder alone; ok is false as soon as one of them
// cannot be.
func unitsInDirs(dl dirLister, env Env, dirs []string) ([]Unit, scope, bool) {
	sc := scope{dirs: map[string]bool{}}
	var units []Unit
	for _, d := range dirs {
		us, ok := dl.UnitsIn(env, d)
		if !ok {
			return nil, scope{}, false
		}
		sc.dirs[filepath.Clean(d)] = true
		units = append(units, us...)
	}
	return units, sc, true
}

// within reports whether dir is root or inside it.
func within(root, dir string) bool {
	root, dir = filepath.Clean(root), filepath.Clean(dir)
	return dir == root || strings.HasPrefix(dir, root+string(filepath.Separator))
}

// depthBelow returns how many folders dir is below root (0: root itself),
// or -1 when it is not inside root.
func depthBelow(root, dir string) int {
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(dir))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return -1
	}
	if rel == "." {
		return 0
	}
	return strings.Count(rel, string(filepath.Separator)) + 1
}

func claudeKeep(n string) bool {
	return strings.HasSuffix(n, ".jsonl") && !strings.HasPrefix(n, "agent-")
}

// UnitsIn lists one project folder. Folders deeper down (a session's
// subagents/) hold no sessions of their own.
func (claudeCode) UnitsIn(env Env, dir string) ([]Unit, bool) {
	for _, root := range claudeProjectRoots(env) {
		switch depthBelow(root, dir) {
		case 1:
			return listFiles(dir, claudeKeep), true
		case 0:
			return nil, false
		case -1:
			continue
		}
		return nil, true
	}
	return nil, false
}

func isRolloutName(n string) bool {
	return strings.HasPrefix(n, "rollout-") && strings.HasSuffix(n, ".jsonl")
}

// UnitsIn lists Codex's home (the state database) or one date folder of
// rollouts.
func (codexStore) UnitsIn(env Env, dir string) ([]Unit, bool) {
	h := codexHome(env)
	if filepath.Clean(dir) == filepath.Clean(h) {
		if u, ok := newestStateDB(h); ok {
			return []Unit{u}, true
		}
		return nil, true
	}
	arch := filepath.Join(h, "archived_sessions")
	if depthBelow(filepath.Join(h, "sessions"), dir) == 3 || depthBelow(arch, dir) == 0 || depthBelow(arch, dir) == 3 {
		return listFiles(dir, isRolloutName), true
	}
	return nil, false
}
