package teamclient

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/store"
)

// SessionsComponent is the session sharing switch in the app's database.
const SessionsComponent = "team_sessions"

var sessionsMigrations = []store.Migration{
	{Version: 1, SQL: `
-- "Share this computer's sessions" (Settings → Team), off until the person
-- turns it on; pending_delete is a removal from the team server that
-- could not reach it yet and is retried until it does. Both change in one
-- write, so a switch turned off is never forgotten half-way.
CREATE TABLE team_session_share (
	id             INTEGER PRIMARY KEY CHECK (id = 1),
	sharing        INTEGER NOT NULL DEFAULT 0,
	pending_delete INTEGER NOT NULL DEFAULT 0
);
INSERT INTO team_session_share (id) VALUES (1);
`},
	{Version: 2, SQL: `
-- "Answer from the team server's page" (Settings → Team): off until the
-- person turns it on; while off, no answer given on the page is typed here.
ALTER TABLE team_session_share ADD COLUMN remote_answers INTEGER NOT NULL DEFAULT 0;
`},
}

// shareState is the switch as saved.
type shareState struct{ sharing, pendingDelete, answers bool }

func (s *SessionShare) loadState(ctx context.Context) (shareState, error) {
	var st shareState
	err := s.db.QueryRowContext(ctx, `SELECT sharing, pending_delete, remote_answers FROM team_session_share WHERE id = 1`).Scan(&st.sharing, &st.pendingDelete, &st.answers)
	if err != nil {
		return st, fmt.Errorf("reading the session sharing switch: %w", err)
	}
	return st, nil
}

func (s *SessionShare) saveState(ctx context.Context, st shareState) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE team_session_share SET sharing = ?, pending_delete = ?, remote_answers = ? WHERE id = 1`,
		st.sharing, st.pendingDelete, st.answers); err != nil {
		return fmt.Errorf("saving the session sharing switch: %w", err)
	}
	return nil
}

// migrateSessions prepares db for the switch.
func migrateSessions(ctx context.Context, db *sql.DB) error {
	return store.Migrate(ctx, db, SessionsComponent, sessionsMigrations)
}

// SharedSession is one board session as it leaves this desktop: its kind,
// title and state, its board key and when it entered that state, and only
// while it needs the person the line the detector matched and how many
// numbered choices the prompt offers. Nothing else of a session is ever
// sent.
type SharedSession struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	State string `json:"state"`
	Line  string `json:"line,omitempty"`
	// ID is the board's key of the session ("terminal/p-1").
	ID string `json:"id,omitempty"`
	// Since is when it entered its state (unix ms).
	Since int64 `json:"since,omitempty"`
	// Choices counts the prompt's numbered choices (never their labels).
	Choices int `json:"choices,omitempty"`
	// Asks is how a chat or agent run of the app that needs the person
	// takes an answer from the page: "approval" or "reply" (AppAnswerer).
	Asks string `json:"asks,omitempty"`
}

// boardCard is the part of a Sessions board card (board.Card, the
// board:changed payload) that sharing reads: a card's folder, paths,
// reasons, branch and costs are never even decoded.
type boardCard struct {
	Key       string `json:"key"`
	ID        string `json:"id"`
	UpdatedAt int64  `json:"updatedAt"`
	Kind      string `json:"kind"`
	Title     string `json:"title"`
	State     string `json:"state"`
	Why       string `json:"why"`
}

// The server's limits (teamsessions): the list is cut to them here.
const (
	maxSharedSessions = 200
	maxSharedTitle    = 200
	maxSharedLine     = 300
)

var (
	sharedKinds  = map[string]bool{"chat": true, "agent": true, "team": true, "loop": true, "terminal": true}
	sharedStates = map[string]bool{"running": true, "needs_you": true, "paused": true, "idle": true, "done": true, "failed": true}
)

// SessionsFromBoard turns the board's cards (a board:changed payload, or
// anything that encodes to the same JSON) into what sharing sends: the
// sessions that need the person first, then the running ones, then the
// rest in the board's order (newest first), at most 200.
func SessionsFromBoard(payload any) ([]SharedSession, error) {
	data, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("reading the board's cards: %w", err)
	}
	var cards []boardCard
	if err := json.Unmarshal(data, &cards); err != nil {
		return nil, fmt.Errorf("reading the board's cards: %w", err)
	}
	out := make([]SharedSession, 0, len(cards))
	for _, rank := range []func(string) bool{
		func(st string) bool { return st == "needs_you" },
		func(st string) bool { return st == "running" },
		func(st string) bool { return st != "needs_you" && st != "running" },
	} {
		for _, c := range cards {
			if !rank(c.State) || !sharedKinds[c.Kind] || !sharedStates[c.State] || len(out) == maxSharedSessions {
				continue
			}
			ss := SharedSession{Kind: c.Kind, Title: oneLineCut(c.Title, maxSharedTitle), State: c.State, ID: cardKey(c), Since: max(c.UpdatedAt, 0)}
			if c.State == "needs_you" {
				ss.Line = oneLineCut(c.Why, maxSharedLine)
			}
			out = append(out, ss)
		}
	}
	return out, nil
}

// cardKey is the card's board key ("terminal/p-1"; the board fills it in,
// else its kind and id), cut to what the server takes.
func cardKey(c boardCard) string {
	k := c.Key
	if k == "" && c.ID != "" {
		k = c.Kind + "/" + c.ID
	}
	k = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:/-", r) {
			return r
		}
		return '_'
	}, k)
	if len(k) > 100 {
		k = k[:100]
	}
	return k
}

// oneLineCut is s on one line (control characters as spaces, runs of
// spaces as one), cut to max characters with an ellipsis.
func oneLineCut(s string, max int) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}
