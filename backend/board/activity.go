package board

import (
	"context"
	"time"

	"github.com/osfoundry/desktop/backend/inventory"
)

// A pane restored after a restart resumes its agent's session, but its
// state history starts at the restore: without the session's own record
// its Done summary said "Nothing was recorded" after a session's worth of
// work. What the session did before the pane (re)started is read from the
// agent's own file.

// SessionActivity is what an AgentSessions may also answer: what the
// agent's session id did before the given time, oldest first.
type SessionActivity interface {
	Activity(agent, id string, before time.Time) []Event
}

// maxEarlier bounds the earlier events a summary lists (the newest are
// kept): the summary is a page, the whole conversation stays in the
// agent's file.
const maxEarlier = 40

// earlierActivity puts the session's activity before s.Started ahead of
// what the source recorded.
func (b *Board) earlierActivity(s *Summary) {
	b.mu.Lock()
	as := b.sessions
	b.mu.Unlock()
	act, ok := as.(SessionActivity)
	if !ok || s.SessionID == "" || s.AgentCLI == "" || s.Started.IsZero() {
		return
	}
	earlier := act.Activity(s.AgentCLI, s.SessionID, s.Started)
	if len(earlier) == 0 {
		return
	}
	s.Events = append(earlier, s.Events...)
}

var _ SessionActivity = (*StoreSessions)(nil)

// Activity reads the session's transcript through the External agents
// index: what the user asked, the tools the agent ran and its answers,
// each with the time the agent wrote it.
func (s *StoreSessions) Activity(agent, id string, before time.Time) []Event {
	app, ok := s.app(agent)
	if !ok {
		return nil
	}
	ctx, ref := context.Background(), string(app)+":"+id
	who := s.display(agent)
	var out []Event
	for cursor, retried := int64(0), false; ; {
		p, err := s.inv.Transcript(ctx, ref, cursor, 2000)
		if err != nil && !retried {
			s.refresh(true) // the session may be newer than the index
			retried = true
			continue
		}
		if err != nil {
			return nil
		}
		for _, r := range p.Rows {
			at, err := time.Parse(time.RFC3339Nano, r.Time)
			if err != nil || !at.Before(before) {
				continue
			}
			if text := rowText(who, r); text != "" {
				out = append(out, Event{At: at.Local(), Text: text})
			}
		}
		if p.Done || p.Next == cursor {
			break
		}
		cursor = p.Next
	}
	if len(out) > maxEarlier {
		out = append([]Event{{Text: "…earlier activity is in " + who + "'s own session"}}, out[len(out)-maxEarlier:]...)
	}
	return out
}

// rowText words one transcript row as a line of "what it did".
func rowText(who string, r inventory.Row) string {
	switch r.Kind {
	case inventory.RowUser:
		return "You asked: " + clip(r.Text, 120)
	case inventory.RowToolCall:
		if r.Name == "" {
			return who + " ran a tool: " + clip(r.Text, 120)
		}
		return who + " ran " + r.Name + ": " + clip(r.Text, 120)
	case inventory.RowAssistant:
		return who + " answered: " + clip(r.Text, 120)
	}
	return ""
}

func clip(s string, n int) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
