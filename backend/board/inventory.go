package board

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/inventory"
)

// StoreSessions finds agents' sessions in their own stores through the
// External agents index (read-only; it never writes beside those files).
type StoreSessions struct {
	inv *inventory.Service
	// display names a CLI the way its rules file does ("Claude Code",
	// "Codex CLI"), which is also how the index names its apps.
	display func(agent string) string

	mu        sync.Mutex
	refreshed time.Time
	recent    map[string]latest // agent|dir|since → the last answer, for refreshEvery
}

type latest struct {
	at    time.Time
	found AgentSession
	ok    bool
}

// refreshEvery bounds re-reads of the stores: card titles ask on every
// board change, and the index's own watcher keeps it current meanwhile.
const refreshEvery = time.Second

func (s *StoreSessions) refresh(force bool) {
	s.mu.Lock()
	due := force || time.Since(s.refreshed) >= refreshEvery
	if due {
		s.refreshed = time.Now()
	}
	s.mu.Unlock()
	if due {
		s.inv.Refresh(context.Background()) //nolint:errcheck // an unreadable store just finds nothing
	}
}

var _ AgentSessions = (*StoreSessions)(nil)

// NewStoreSessions reads inv; display maps a CLI's rules name to its
// display name (detect.Registry.DisplayName).
func NewStoreSessions(inv *inventory.Service, display func(agent string) string) *StoreSessions {
	return &StoreSessions{inv: inv, display: display}
}

func (s *StoreSessions) app(agent string) (inventory.AppID, bool) {
	name := s.display(agent)
	for _, a := range inventory.AllApps {
		if a.Name() == name {
			return a, true
		}
	}
	return "", false
}

// Latest is the most recently used session of agent recorded for dir since
// the given time. The index is refreshed first: the session may have been
// written a moment ago.
func (s *StoreSessions) Latest(agent, dir string, since time.Time) (AgentSession, bool) {
	app, ok := s.app(agent)
	if !ok || dir == "" {
		return AgentSession{}, false
	}
	key := agent + "|" + dir + "|" + since.String()
	s.mu.Lock()
	if r, hit := s.recent[key]; hit && time.Since(r.at) < refreshEvery {
		s.mu.Unlock()
		return r.found, r.ok
	}
	s.mu.Unlock()
	s.refresh(false)
	found, ok := latestIn(s.inv.List("", app), dir, since)
	s.mu.Lock()
	if s.recent == nil || len(s.recent) > 256 {
		s.recent = map[string]latest{}
	}
	s.recent[key] = latest{at: time.Now(), found: found, ok: ok}
	s.mu.Unlock()
	return found, ok
}

// latestIn picks the newest session kept for dir and used since.
func latestIn(list []inventory.Session, dir string, since time.Time) (AgentSession, bool) {
	dir = filepath.Clean(dir)
	var best inventory.Session
	for _, ss := range list {
		if filepath.Clean(ss.Folder) != dir || ss.UpdatedMs < since.UnixMilli() || ss.Archived {
			continue
		}
		if ss.UpdatedMs > best.UpdatedMs {
			best = ss
		}
	}
	if best.ID == "" {
		return AgentSession{}, false
	}
	return AgentSession{ID: best.ResumeID, Title: best.Title}, true
}

// Plan is the External agents screen's own relaunch of the session: the
// same argv its "Open in Terminal" runs, approval settings never weakened.
func (s *StoreSessions) Plan(agent, id string) (ResumePlan, error) {
	app, ok := s.app(agent)
	if !ok {
		return ResumePlan{}, inventory.ErrNotResumable
	}
	ctx := context.Background()
	pl, err := s.inv.PlanResume(ctx, string(app)+":"+id, inventory.PlanOptions{})
	if err != nil {
		s.refresh(true) // retried once on a fresh index
		pl, err = s.inv.PlanResume(ctx, string(app)+":"+id, inventory.PlanOptions{})
	}
	if err != nil {
		return ResumePlan{}, err
	}
	return ResumePlan{Folder: pl.Folder, Argv: pl.Argv}, nil
}
