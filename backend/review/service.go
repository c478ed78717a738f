package review

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
)

// EventChanged carries a ChangedEvent when a pane's comments were sent or
// queued, or its branch was finished (mirrored in frontend/src/lib/events.ts).
const EventChanged = "review:changed"

// ChangedEvent names the pane whose Review changed.
type ChangedEvent struct {
	Pane string `json:"pane"`
}

// Emitter sends one UI event; the app passes its Wails adapter.
type Emitter interface {
	Emit(event string, payload any)
}

// Panes is what the Review needs of the terminal: the panes with their
// branches, and closing one (Archive).
type Panes interface {
	List() []terminal.Info
	Close(id string) error
}

var _ Panes = (*terminal.Manager)(nil)

// Service is the Review view's binding.
type Service struct {
	panes    Panes
	agent    Agent
	comments *Comments
	env      func() []string
	emit     Emitter
	q        queue
	finishMu sync.Mutex // one Finish at a time: two merges into one base would race
}

// Options wire a Service.
type Options struct {
	Panes    Panes
	Agent    Agent
	Comments *Comments
	Env      func() []string // git's environment (the login shell's PATH); nil: the app's own
	Emitter  Emitter         // nil: no events
}

// New builds the Review service.
func New(o Options) *Service {
	if o.Env == nil {
		o.Env = os.Environ
	}
	s := &Service{panes: o.Panes, agent: o.Agent, comments: o.Comments, env: o.Env, emit: o.Emitter}
	if o.Comments != nil {
		// Sends queued before the app last quit wait for their panes again.
		q, err := o.Comments.queued()
		if err != nil {
			s.log("%v", err)
		}
		s.q.pending = q
	}
	return s
}

// Review is what the view shows for a pane's branch.
type Review struct {
	Pane     string          `json:"pane"`
	Branch   terminal.Branch `json:"branch"`
	Files    []File          `json:"files"`
	Comments []Comment       `json:"comments"` // open ones
	Queued   bool            `json:"queued"`   // comments wait for the agent to be idle
	ReadAt   int64           `json:"readAt"`   // unix ms
}

// Review reads the pane branch's changes since its base and its open
// comments.
func (s *Service) Review(pane string) (Review, error) {
	b, err := s.branchOf(pane)
	if err != nil {
		return Review{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	files, err := Changes(ctx, s.env(), b.Worktree, b.BaseCommit)
	if err != nil {
		return Review{}, err
	}
	cs, err := s.comments.Open(b.Repo, b.Name)
	if err != nil {
		return Review{}, err
	}
	return Review{Pane: pane, Branch: *b, Files: files, Comments: cs, Queued: s.Queued(pane), ReadAt: time.Now().UnixMilli()}, nil
}

// AddComment keeps a comment on a line of the pane branch's diff.
func (s *Service) AddComment(pane string, c Comment) (Comment, error) {
	b, err := s.branchOf(pane)
	if err != nil {
		return Comment{}, err
	}
	return s.comments.Add(b.Repo, b.Name, c)
}

// Resolve closes one of the pane branch's comments.
func (s *Service) Resolve(pane string, id int64) error {
	b, err := s.branchOf(pane)
	if err != nil {
		return err
	}
	return s.comments.Resolve(b.Repo, b.Name, id)
}

func (s *Service) branchOf(pane string) (*terminal.Branch, error) {
	for _, p := range s.panes.List() {
		if p.ID == pane {
			if p.Branch == nil {
				return nil, fmt.Errorf("pane %s is not on a branch of its own — start a pane with \"On a new branch\" to review its work", pane)
			}
			return p.Branch, nil
		}
	}
	return nil, fmt.Errorf("pane %s: no such pane (it may have been closed)", pane)
}

func (s *Service) changed(pane string) {
	if s.emit != nil {
		s.emit.Emit(EventChanged, ChangedEvent{Pane: pane})
	}
}

func (s *Service) log(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "osfoundry: "+format+"\n", args...)
}
