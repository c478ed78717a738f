package board

import (
	"context"
	"errors"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/pipeline"
)

// Pipeline is the board's source for the pipeline's chats and agent runs.
type Pipeline struct {
	svc *pipeline.Service
}

// NewPipeline offers svc's cards; changed (the Board's Changed) is called
// whenever a chat or run may have changed.
func NewPipeline(svc *pipeline.Service, changed func()) *Pipeline {
	if changed != nil {
		svc.OnChange(changed)
	}
	return &Pipeline{svc: svc}
}

// Cards maps the pipeline's cards; its states are already board columns.
func (p *Pipeline) Cards() []Card {
	cards := p.svc.Cards()
	out := make([]Card, 0, len(cards))
	for _, c := range cards {
		kind := KindChat
		link := "/chat?chat=" + c.ID
		if c.Kind == pipeline.KindAgent {
			kind, link = KindAgent, "/agents"
		}
		out = append(out, Card{ID: c.ID, Kind: kind, Title: c.Title, Folder: shortFolder(c.Folder), Dir: c.Folder,
			State: c.State, Why: c.Detail, StartedAt: c.UpdatedAt.UnixMilli(), UpdatedAt: c.UpdatedAt.UnixMilli(), Link: link,
			CanPause: c.CanPause})
	}
	return out
}

func shortFolder(dir string) string {
	dir = strings.TrimRight(dir, `/\`)
	if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
		return dir[i+1:]
	}
	return dir
}

// Summary reads a chat (messages) or an agent run (its answer).
func (p *Pipeline) Summary(id string) (Summary, error) {
	ctx := context.Background()
	var state string
	for _, c := range p.svc.Cards() {
		if c.ID == id {
			state = c.State
		}
	}
	if d, err := p.svc.GetChat(ctx, id); err == nil {
		s := Summary{Title: d.Chat.Title, State: state, Dir: d.Chat.Folder, Agent: d.Chat.CLIAgent, Started: d.Chat.CreatedAt}
		for _, r := range d.Runs {
			if r.Model != "" && s.Command == "" {
				s.Command = r.Model
			}
		}
		for _, m := range d.Messages {
			s.Events = append(s.Events, Event{At: m.CreatedAt, Text: m.Role + ": " + firstLine(m.Text)})
		}
		if n := len(d.Messages); n > 0 {
			s.LastScreen = strings.Split(strings.TrimSpace(d.Messages[n-1].Text), "\n")
		}
		return s, nil
	} else if !errors.Is(err, pipeline.ErrNoChat) {
		return Summary{}, err
	}
	r, err := p.svc.GetRun(ctx, id)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{Title: r.Title, State: state, Command: r.Model, Dir: r.Folder, Started: r.StartedAt}
	for _, line := range r.Progress {
		s.Events = append(s.Events, Event{Text: line})
	}
	s.LastScreen = strings.Split(strings.TrimSpace(r.Text), "\n")
	return s, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// Pause freezes a chat's run in progress or an agent run.
func (p *Pipeline) Pause(id string) error { return p.pauseErr(p.svc.Pause(id)) }

// Resume continues a paused chat or agent run.
func (p *Pipeline) Resume(id string) error { return p.pauseErr(p.svc.Resume(id)) }

// pauseErr says ErrNoPause the board's way when this system cannot freeze runs.
func (p *Pipeline) pauseErr(err error) error {
	if errors.Is(err, agentcli.ErrPauseUnavailable) {
		return ErrNoPause
	}
	return err
}

// End ends a chat. Agent runs end on their own; one on the board is
// either still running or already ended, which the drop rules refuse.
func (p *Pipeline) End(id string) error {
	err := p.svc.EndChat(context.Background(), id)
	if errors.Is(err, pipeline.ErrNoChat) {
		return ErrEnded
	}
	return err
}
