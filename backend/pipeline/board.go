package pipeline

import (
	"context"
	"strings"
	"time"
)

// Card is one Sessions board card offered by the pipeline: a chat, or an
// agent run outside a chat.
type Card struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"` // "chat" or "agent"
	Title  string `json:"title"`
	State  string `json:"state"` // StateRunning, StateNeedsYou, …
	Folder string `json:"folder"`
	Model  string `json:"model,omitempty"`
	Detail string `json:"detail,omitempty"` // last progress line or message
	// CanPause: a run is in progress and this system can freeze it.
	CanPause  bool      `json:"canPause"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Card kinds.
const (
	KindChat  = "chat"
	KindAgent = "agent"
)

// maxAgentCards bounds the agent runs shown (the newest).
const maxAgentCards = 50

// Cards lists the board cards now. Errors reading the database yield the
// cards read so far (the board must never go blank on a hiccup).
func (s *Service) Cards() []Card {
	ctx := context.Background()
	var out []Card
	chats, _ := s.Chats(ctx)
	for _, c := range chats {
		card := Card{ID: c.ID, Kind: KindChat, Title: c.Title, State: c.State, Folder: c.Folder, UpdatedAt: c.UpdatedAt}
		var text string
		if s.db.QueryRowContext(ctx, `SELECT text FROM pipeline_messages WHERE chat_id = ? ORDER BY id DESC LIMIT 1`, c.ID).Scan(&text) == nil {
			card.Detail = lastLine(text)
		}
		if id := s.activeFor(c.ID); id != "" {
			if p := s.liveProgress(id); len(p) > 0 {
				card.Detail = p[len(p)-1]
			}
			s.livePause(&card, id)
		}
		out = append(out, card)
	}
	runs, _ := s.runs(ctx, `chat_id = '' AND id IN (SELECT id FROM pipeline_runs WHERE chat_id = '' ORDER BY started_at DESC LIMIT ?)`, maxAgentCards)
	for _, r := range runs {
		card := Card{ID: r.ID, Kind: KindAgent, Title: r.Title, State: r.State, Folder: r.Folder, Model: r.Model, UpdatedAt: r.StartedAt}
		if !r.FinishedAt.IsZero() {
			card.UpdatedAt = r.FinishedAt
		}
		if r.State == StateRunning && s.awaitingApproval(r.ID) {
			card.State = StateNeedsYou
		}
		if r.State == StateRunning || r.State == StatePaused {
			s.livePause(&card, r.ID)
		}
		switch {
		case card.State == StatePaused:
		case r.Error != "":
			card.Detail = lastLine(r.Error)
		case len(r.Progress) > 0 && (r.State == StateRunning || r.State == StatePaused):
			card.Detail = r.Progress[len(r.Progress)-1]
		default:
			card.Detail = lastLine(r.Text)
		}
		out = append(out, card)
	}
	if out == nil {
		out = []Card{}
	}
	return out
}

// livePause marks the card of a run in progress pausable, and paused
// (with its why line) while it is frozen.
func (s *Service) livePause(card *Card, runID string) {
	ar := s.activeRunOf(runID)
	if ar == nil {
		return
	}
	card.CanPause = CanPause()
	switch {
	case ar.ctl.Paused():
		card.State, card.Detail = StatePaused, pausedLine(ar.agent)
	case card.State == StatePaused: // resumed since the run was read
		card.State = StateRunning
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
