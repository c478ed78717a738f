package chat

import (
	"context"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/cost"
	"github.com/osfoundry/desktop/backend/runs"
)

// maxAgentCards bounds the agent runs shown (the newest).
const maxAgentCards = 50

// boardCards lists the Sessions board cards of the chats and the agent
// runs now. Errors reading the database yield the cards read so far (the
// board must never go blank on a hiccup).
func (s *Service) boardCards() []board.Card {
	ctx := context.Background()
	var out []board.Card
	chats, _ := s.Chats(ctx)
	for _, c := range chats {
		card := board.Card{ID: c.ID, Kind: board.KindChat, Title: c.Title, State: c.State, Dir: c.Folder,
			UpdatedAt: c.UpdatedAt, Link: "/chat?chat=" + c.ID}
		var text string
		if s.db.QueryRowContext(ctx, `SELECT text FROM pipeline_messages WHERE chat_id = ? ORDER BY id DESC LIMIT 1`, c.ID).Scan(&text) == nil {
			card.Why = lastLine(text)
		}
		var model string
		if s.db.QueryRowContext(ctx, `SELECT model FROM pipeline_runs WHERE chat_id = ? ORDER BY started_at DESC LIMIT 1`, c.ID).Scan(&model) == nil {
			card.Model = cliModel(model)
		}
		var reported float64
		if s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(reported_cost_usd), 0) FROM pipeline_runs WHERE chat_id = ?`, c.ID).Scan(&reported) == nil {
			rc := cost.OfRun(reported)
			card.Cost = &rc
		}
		if id := s.activeFor(c.ID); id != "" {
			if p := s.eng.Progress(id); len(p) > 0 {
				card.Why = p[len(p)-1]
			}
			s.livePause(&card, id)
		}
		out = append(out, s.finish(card))
	}
	agentRuns, _ := s.runs(ctx, `chat_id = '' AND id IN (SELECT id FROM pipeline_runs WHERE chat_id = '' ORDER BY started_at DESC LIMIT ?)`, maxAgentCards)
	for _, r := range agentRuns {
		card := board.Card{ID: r.ID, Kind: board.KindAgent, Title: r.Title, State: r.State, Dir: r.Folder,
			UpdatedAt: r.StartedAt, Link: "/agents", Cost: &r.Cost, Model: cliModel(r.Model)}
		if r.FinishedAt != 0 {
			card.UpdatedAt = r.FinishedAt
		}
		if r.State == runs.StateRunning && s.awaitingApproval(r.ID) {
			card.State = runs.StateNeedsYou
		}
		if r.State == runs.StateRunning || r.State == runs.StatePaused {
			s.livePause(&card, r.ID)
		}
		switch {
		case card.State == runs.StatePaused:
		case r.Error != "":
			card.Why = lastLine(r.Error)
		case len(r.Progress) > 0 && (r.State == runs.StateRunning || r.State == runs.StatePaused):
			card.Why = r.Progress[len(r.Progress)-1]
		default:
			card.Why = lastLine(r.Text)
		}
		out = append(out, s.finish(card))
	}
	if out == nil {
		out = []board.Card{}
	}
	return out
}

// cliModel is the model picked for a run (cli:…@model), "" for the CLI's
// default.
func cliModel(id string) string {
	m, err := agentcli.ParseModel(id)
	if err != nil {
		return ""
	}
	return m.CLIModel
}

// finish gives a card its short folder and start, and a line of prose
// when the stored line ended a code block or JSON ("}"): the whole last
// answer is read for it.
func (s *Service) finish(c board.Card) board.Card {
	c.Folder, c.StartedAt = board.ShortFolder(c.Dir), c.UpdatedAt
	if c.Why != "" && !board.IsProse(c.Why) && c.State != board.Running && c.State != board.Paused {
		c.Why = s.prose(c.ID, c.Kind)
	}
	return c
}

// prose is the last line of prose of a chat's last message or of an agent
// run's answer.
func (s *Service) prose(id, kind string) string {
	ctx := context.Background()
	if kind == board.KindChat {
		d, err := s.GetChat(ctx, id)
		if err != nil || len(d.Messages) == 0 {
			return ""
		}
		return board.ProsePreview(d.Messages[len(d.Messages)-1].Text)
	}
	r, err := s.GetRun(ctx, id)
	if err != nil {
		return ""
	}
	return board.ProsePreview(r.Text)
}

// RunStates reads each agent run's own column (a run waiting for an
// approval reads Needs you): a Team card's column combines its runs'.
func (s *Service) RunStates() map[string]string {
	out := map[string]string{}
	for _, c := range s.boardCards() {
		if c.Kind == board.KindAgent {
			out[c.ID] = c.State
		}
	}
	return out
}

// livePause marks the card of a run in progress pausable, and paused
// (with its why line) while it is frozen.
func (s *Service) livePause(card *board.Card, runID string) {
	running, why := s.eng.Live(runID)
	if !running {
		return
	}
	card.CanPause = runs.CanPause()
	switch {
	case why != "":
		card.State, card.Why = runs.StatePaused, why
	case card.State == runs.StatePaused: // resumed since the run was read
		card.State = runs.StateRunning
	}
}

// OnChange registers fn to be called after any card may have changed; the
// returned function unregisters it.
func (s *Service) OnChange(fn func()) (unsubscribe func()) {
	s.mu.Lock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

// ApprovalsChanged is called by the app when its approval queue changes,
// so a run waiting on the user moves to Needs you (and back).
func (s *Service) ApprovalsChanged() { s.changed("") }

func (s *Service) changed(chatID string) {
	s.mu.Lock()
	fns := make([]func(), 0, len(s.subs))
	for _, f := range s.subs {
		fns = append(fns, f)
	}
	s.mu.Unlock()
	for _, f := range fns {
		f()
	}
	s.em.Emit(EventChanged, chatID)
}

// awaitingApproval reports whether a run's bridge is waiting for the user
// to approve a tool call.
func (s *Service) awaitingApproval(runID string) bool {
	if s.o.Pending == nil {
		return false
	}
	for _, p := range s.o.Pending() {
		if p.Source == "bridge:"+runID {
			return true
		}
	}
	return false
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if r := []rune(l); len(r) > 200 {
		l = string(r[:200]) + "…"
	}
	return l
}
