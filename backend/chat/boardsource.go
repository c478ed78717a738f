package chat

import (
	"context"
	"errors"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/runs"
)

// BoardSource offers the chats and the agent runs to the Sessions board:
// their cards, Done summaries, Pause and End.
type BoardSource struct {
	svc    *Service
	hidden func() map[string]bool
}

var (
	_ board.Watched = (*BoardSource)(nil)
	_ board.Pauser  = (*BoardSource)(nil)
)

// NewBoardSource offers svc's cards. hidden (nil: none) names the agent
// runs to leave out: a Team's or Loop's runs are on their job's card, not
// cards of their own.
func NewBoardSource(svc *Service, hidden func() map[string]bool) *BoardSource {
	return &BoardSource{svc: svc, hidden: hidden}
}

// Watch calls changed whenever a chat or run may have changed.
func (b *BoardSource) Watch(changed func()) { b.svc.OnChange(changed) }

// Cards lists the cards; their states are already board columns.
func (b *BoardSource) Cards() []board.Card {
	cards := b.svc.boardCards()
	if b.hidden == nil {
		return cards
	}
	hide := b.hidden()
	out := cards[:0]
	for _, c := range cards {
		if c.Kind == board.KindAgent && hide[c.ID] {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Summary reads a chat (messages) or an agent run (its answer).
func (b *BoardSource) Summary(id string) (board.Summary, error) {
	ctx := context.Background()
	var state string
	for _, c := range b.svc.boardCards() {
		if c.ID == id {
			state = c.State
		}
	}
	if d, err := b.svc.GetChat(ctx, id); err == nil {
		s := board.Summary{Title: d.Chat.Title, State: state, Dir: d.Chat.Folder, AgentCLI: d.Chat.CLIAgent, SessionID: d.Chat.CLISession, Started: time.UnixMilli(d.Chat.CreatedAt)}
		for _, r := range d.Runs {
			if r.Model != "" && s.Command == "" {
				s.Command = r.Model
			}
			// The newest run's session is the one to resume.
			agentOfRun(&s, r)
		}
		s.Agent = agentTitle(s.AgentCLI)
		for _, m := range d.Messages {
			s.Events = append(s.Events, board.Event{At: time.UnixMilli(m.CreatedAt), Text: m.Role + ": " + board.FirstLine(m.Text)})
		}
		if n := len(d.Messages); n > 0 {
			s.LastScreen = board.LastLines(d.Messages[n-1].Text)
		}
		return s, nil
	} else if !errors.Is(err, ErrNoChat) {
		return board.Summary{}, err
	}
	r, err := b.svc.GetRun(ctx, id)
	if err != nil {
		return board.Summary{}, err
	}
	s := board.Summary{Title: r.Title, State: state, Command: r.Model, Dir: r.Folder, Started: time.UnixMilli(r.StartedAt)}
	agentOfRun(&s, r)
	s.Agent = agentTitle(s.AgentCLI)
	for _, line := range r.Progress {
		s.Events = append(s.Events, board.Event{Text: line})
	}
	s.LastScreen = board.LastLines(r.Text)
	return s, nil
}

// Pause freezes a chat's run in progress or an agent run.
func (b *BoardSource) Pause(id string) error { return pauseErr(b.svc.Pause(id)) }

// Resume continues a paused chat or agent run.
func (b *BoardSource) Resume(id string) error { return pauseErr(b.svc.Resume(id)) }

// pauseErr says ErrNoPause the board's way when this system cannot freeze runs.
func pauseErr(err error) error {
	if errors.Is(err, agentcli.ErrPauseUnavailable) {
		return board.ErrNoPause
	}
	return err
}

// End ends a chat, or stops an agent run (the drop rules let only a paused
// one get here; the board then shows it in Done, not as failed).
func (b *BoardSource) End(id string) error {
	err := b.svc.EndChat(context.Background(), id)
	if !errors.Is(err, ErrNoChat) {
		return err
	}
	if _, rerr := b.svc.GetRun(context.Background(), id); rerr != nil {
		return board.ErrEnded
	}
	if err := b.svc.Cancel(id); err != nil {
		return board.ErrEnded // it finished on its own meanwhile
	}
	return nil
}

// agentOfRun takes the agent and its session from a run (a later run's
// session replaces an earlier one's: it is the one to resume).
func agentOfRun(s *board.Summary, r runs.Run) {
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
