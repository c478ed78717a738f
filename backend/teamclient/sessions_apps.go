package teamclient

import "context"

// The app's own chats, agent runs, Teams and Loops wait for the person too: a run's
// tool call to approve or decline, a chat's question to reply to. While
// one waits, the shared session says how it takes an answer (Asks), and an
// answer from the page reaches it through the same claimed-once path as
// a pane's, given to the AppAnswerer (backend/remoteanswer.App), which
// checks at that moment that the same wait is still there and writes the
// tool audit with the browser it came from.

// AppAnswerer answers the app's own sessions that wait.
type AppAnswerer interface {
	// Waiting says how the session kind ("chat", "agent", "team", "loop") id, which the
	// board shows as needing the person with why, takes an answer now:
	// asks "approval" or "reply" ("" : none from the page), the line to
	// show, and since, naming this very wait (unix ms; 0 keeps the card's).
	Waiting(kind, id, why string) (asks, line string, since int64)
	// Answer gives a to the session if the same wait (a.Since) is still
	// there; done is false when it was gone (answered at the desk).
	Answer(ctx context.Context, kind, id string, a RemoteAnswer) (done bool, err error)
}

type appSession struct{ kind, id string }

// SetAppAnswerer lets the page answer the app's chats and agent runs.
func (s *SessionShare) SetAppAnswerer(a AppAnswerer) {
	s.mu.Lock()
	s.app = a
	s.mu.Unlock()
}

// askApps fills in how the app's waiting sessions take an answer, and
// shares only the line the AppAnswerer gives (a question, the tool a run
// asks to use), never the card's own last step.
func askApps(a AppAnswerer, apps map[string]appSession, cards []SharedSession) {
	for i := range cards {
		as, ok := apps[cards[i].ID]
		if !ok || cards[i].State != "needs_you" {
			continue
		}
		asks, line, since := a.Waiting(as.kind, as.id, cards[i].Line)
		if asks != "approval" && asks != "reply" {
			// What the card says of it (a run's last step, with its
			// tool's arguments) is not a question: it stays here.
			cards[i].Line = ""
			continue
		}
		cards[i].Asks, cards[i].Line = asks, oneLineCut(line, maxSharedLine)
		if since > 0 {
			cards[i].Since = since
		}
	}
}
