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
	svc    *pipeline.Service
	hidden func() map[string]bool
}

// SetHidden leaves out the runs hidden() names: a Team's or Loop's runs
// are on their job's card, not cards of their own.
func (p *Pipeline) SetHidden(hidden func() map[string]bool) { p.hidden = hidden }

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
	var hide map[string]bool
	if p.hidden != nil {
		hide = p.hidden()
	}
	out := make([]Card, 0, len(cards))
	for _, c := range cards {
		if c.Kind == pipeline.KindAgent && hide[c.ID] {
			continue
		}
		kind := KindChat
		link := "/chat?chat=" + c.ID
		if c.Kind == pipeline.KindAgent {
			kind, link = KindAgent, "/agents"
		}
		why := c.Detail
		if why != "" && !isProse(why) && c.State != Running && c.State != Paused {
			why = p.prose(c.ID, kind)
		}
		out = append(out, Card{ID: c.ID, Kind: kind, Title: c.Title, Folder: shortFolder(c.Folder), Dir: c.Folder,
			State: c.State, Why: why, StartedAt: c.UpdatedAt.UnixMilli(), UpdatedAt: c.UpdatedAt.UnixMilli(), Link: link,
			CanPause: c.CanPause})
	}
	return out
}

// prose reads the whole last answer of a chat or run for its last line of
// prose: the stored line ended a code block or JSON ("}").
func (p *Pipeline) prose(id, kind string) string {
	ctx := context.Background()
	if kind == KindChat {
		d, err := p.svc.GetChat(ctx, id)
		if err != nil || len(d.Messages) == 0 {
			return ""
		}
		return prosePreview(d.Messages[len(d.Messages)-1].Text)
	}
	r, err := p.svc.GetRun(ctx, id)
	if err != nil {
		return ""
	}
	return prosePreview(r.Text)
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
		s := Summary{Title: d.Chat.Title, State: state, Dir: d.Chat.Folder, AgentCLI: d.Chat.CLIAgent, SessionID: d.Chat.CLISession, Started: d.Chat.CreatedAt}
		for _, r := range d.Runs {
			if r.Model != "" && s.Command == "" {
				s.Command = r.Model
			}
			// The newest run's session is the one to resume.
			s.agentOfRun(r)
		}
		s.Agent = agentTitle(s.AgentCLI)
		for _, m := range d.Messages {
			s.Events = append(s.Events, Event{At: m.CreatedAt, Text: m.Role + ": " + firstLine(m.Text)})
		}
		if n := len(d.Messages); n > 0 {
			s.LastScreen = lastLines(d.Messages[n-1].Text)
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
	s.agentOfRun(r)
	s.Agent = agentTitle(s.AgentCLI)
	for _, line := range r.Progress {
		s.Events = append(s.Events, Event{Text: line})
	}
	s.LastScreen = lastLines(r.Text)
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

// End ends a chat, or stops an agent run (the drop rules let only a paused
// one get here; the board then shows it in Done, not as failed).
func (p *Pipeline) End(id string) error {
	err := p.svc.EndChat(context.Background(), id)
	if !errors.Is(err, pipeline.ErrNoChat) {
		return err
	}
	if _, rerr := p.svc.GetRun(context.Background(), id); rerr != nil {
		return ErrEnded
	}
	if err := p.svc.Cancel(id); err != nil {
		return ErrEnded // it finished on its own meanwhile
	}
	return nil
}

// agentOfRun takes the agent and its session from a run (a later run's
// session replaces an earlier one's: it is the one to resume).
func (s *Summary) agentOfRun(r pipeline.Run) {
	if m, err := agentcli.ParseModel(r.Model); err == nil && s.AgentCLI == "" {
		s.AgentCLI = string(m.Agent)
	}
	if r.SessionID != "" {
		s.SessionID = r.SessionID
	}
}

// agentTitle is the product name of a pipeline CLI ("Claude Code").
func agentTitle(cli string) string {
	if cli == "" {
		return ""
	}
	return agentcli.Agent(cli).Title()
}
