package teamsessions

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// Session is one board session as a desktop shares it: nothing more.
type Session struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	State string `json:"state"`
	// Line is the line the detector matched, only while State is
	// needs_you ("" otherwise, and then left out).
	Line string `json:"line,omitempty"`
	// ID is the board's own key of the session ("terminal/p-1"): what an
	// answer names, never a path or screen text.
	ID string `json:"id,omitempty"`
	// Since is when the session entered its state (unix ms, from the board).
	Since int64 `json:"since,omitempty"`
	// Choices counts the numbered choices the prompt offers while it needs
	// the person (0: none seen); their labels never leave the desktop.
	Choices int `json:"choices,omitempty"`
	// Asks is how an app session (chat, agent) that needs the person takes
	// an answer from the page: AsksApproval or AsksReply ("": none; a
	// terminal pane's prompt takes any).
	Asks string `json:"asks,omitempty"`
}

// How an app session takes an answer from the page.
const (
	AsksApproval = "approval" // Approve or Decline a tool call
	AsksReply    = "reply"    // a short text reply to a chat's question
)

// Upload is the body of PUT /api/sessions/device: the desktop's whole list.
type Upload struct {
	Sessions []Session `json:"sessions"`
	// Answers is the desktop's "Answer from the team server's page" switch.
	Answers bool `json:"answers,omitempty"`
}

// Limits of an upload; a desktop sends its newest sessions first and cuts
// the list and the text to these.
const (
	MaxSessions = 200
	MaxTitle    = 200 // characters
	MaxLine     = 300 // characters
	MaxID       = 100 // characters of [A-Za-z0-9._:/-]
	MaxChoices  = 9
	maxBody     = 512 << 10
)

// Kinds and States are the board's (backend/board), the only values taken.
var (
	Kinds  = []string{"chat", "agent", "team", "loop", "terminal"}
	States = []string{"running", "needs_you", "paused", "idle", "done", "failed"}
)

// NeedsYou is the state whose sessions carry their matched line.
const NeedsYou = "needs_you"

func (u Upload) check() error {
	if len(u.Sessions) > MaxSessions {
		return badInput("%d sessions is more than the %d one desktop may share: send the newest %d", len(u.Sessions), MaxSessions, MaxSessions)
	}
	for i, ss := range u.Sessions {
		switch {
		case !slices.Contains(Kinds, ss.Kind):
			return badInput("session %d: kind %q is not one of %s", i+1, ss.Kind, strings.Join(Kinds, ", "))
		case !slices.Contains(States, ss.State):
			return badInput("session %d: state %q is not one of %s", i+1, ss.State, strings.Join(States, ", "))
		case ss.Line != "" && ss.State != NeedsYou:
			return badInput("session %d: a line is shared only while a session needs you: send it without \"line\"", i+1)
		case !plain(ss.Title, MaxTitle):
			return badInput("session %d: the title must be one line of at most %d characters without control characters", i+1, MaxTitle)
		case !plain(ss.Line, MaxLine):
			return badInput("session %d: the line must be one line of at most %d characters without control characters", i+1, MaxLine)
		case !sessionID(ss.ID):
			return badInput("session %d: the id must be at most %d letters, digits and . _ : / -", i+1, MaxID)
		case ss.Since < 0:
			return badInput("session %d: since is unix milliseconds, not negative", i+1)
		case ss.Choices < 0 || ss.Choices > MaxChoices:
			return badInput("session %d: choices counts 0 to %d numbered choices", i+1, MaxChoices)
		case ss.Choices != 0 && ss.State != NeedsYou:
			return badInput("session %d: choices are shared only while a session needs you: send it without \"choices\"", i+1)
		case ss.Asks != "" && ss.Asks != AsksApproval && ss.Asks != AsksReply:
			return badInput("session %d: asks is %q or %q", i+1, AsksApproval, AsksReply)
		case ss.Asks != "" && (ss.State != NeedsYou || ss.Kind == "terminal"):
			return badInput("session %d: asks names how a chat or agent run that needs you takes an answer: send it without \"asks\"", i+1)
		}
	}
	return nil
}

// sessionID is an opaque board key: short, and nothing a path or a screen
// line could hide in.
func sessionID(s string) bool {
	if len(s) > MaxID {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:/-", r)) {
			return false
		}
	}
	return true
}

// plain is one line of at most max characters, without control characters.
func plain(s string, max int) bool {
	return utf8.ValidString(s) && utf8.RuneCountInString(s) <= max && strings.IndexFunc(s, unicode.IsControl) < 0
}

// readUpload decodes a JSON body with nothing but the known fields, so a
// desktop can never send more of a session than Session holds.
func readUpload(r *http.Request, v *Upload) error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return badInput("send the list as JSON with Content-Type: application/json")
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badInput("the list cannot be read (%v): send {\"sessions\": [{\"kind\", \"title\", \"state\", \"line\", \"id\", \"since\", \"choices\", \"asks\"}], \"answers\"} and nothing more", err)
	}
	return nil
}

// Put replaces everything device d of person sent before with sessions, in
// one transaction, and tells the person's readers on every replica.
func (s *Service) Put(ctx context.Context, person string, d teamauth.Device, sessions []Session) error {
	return s.PutUpload(ctx, person, d, Upload{Sessions: sessions})
}

// PutUpload is Put with the desktop's remote-answers switch.
func (s *Service) PutUpload(ctx context.Context, person string, d teamauth.Device, up Upload) error {
	sessions := up.Sessions
	var started []Session
	err := s.inTx(ctx, person, func(tx pgx.Tx) error {
		var err error
		if started, err = newlyWaiting(ctx, tx, person, d.Key, sessions); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO shared_session_devices (person_id, device, name, updated_at, answers) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (person_id, device) DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at, answers = EXCLUDED.answers`,
			person, d.Key, d.Name, s.cfg.Now(), up.Answers); err != nil {
			return fmt.Errorf("keeping the desktop: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM shared_sessions WHERE person_id = $1 AND device = $2`, person, d.Key); err != nil {
			return fmt.Errorf("replacing the desktop's sessions: %w", err)
		}
		rows := make([][]any, len(sessions))
		for i, ss := range sessions {
			rows[i] = []any{person, d.Key, i, ss.Kind, ss.Title, ss.State, ss.Line, ss.ID, ss.Since, ss.Choices, ss.Asks}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"shared_sessions"},
			[]string{"person_id", "device", "position", "kind", "title", "state", "line", "sid", "since", "choices", "asks"}, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("keeping the desktop's sessions: %w", err)
		}
		return nil
	})
	if err != nil || s.cfg.NeedsYou == nil {
		return err
	}
	for _, ss := range started {
		go func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			s.cfg.NeedsYou(ctx, person, d, ss)
		}()
	}
	return nil
}

// newlyWaiting is the sessions of an upload that need the person and did
// not in the device's last upload (a session is its kind and title).
func newlyWaiting(ctx context.Context, tx pgx.Tx, person, device string, sessions []Session) ([]Session, error) {
	rows, err := tx.Query(ctx, `SELECT kind, title FROM shared_sessions WHERE person_id = $1 AND device = $2 AND state = $3`, person, device, NeedsYou)
	if err != nil {
		return nil, fmt.Errorf("reading the desktop's last sessions: %w", err)
	}
	before, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var kind, title string
		err := r.Scan(&kind, &title)
		return kind + "\x00" + title, err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the desktop's last sessions: %w", err)
	}
	var out []Session
	for _, ss := range sessions {
		if ss.State == NeedsYou && !slices.Contains(before, ss.Kind+"\x00"+ss.Title) {
			out = append(out, ss)
		}
	}
	return out, nil
}

// Delete removes everything device of person shared, at once.
func (s *Service) Delete(ctx context.Context, person, device string) error {
	return s.inTx(ctx, person, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM shared_session_devices WHERE person_id = $1 AND device = $2`, person, device); err != nil {
			return fmt.Errorf("removing the desktop's sessions: %w", err)
		}
		return nil
	})
}

func (s *Service) inTx(ctx context.Context, person string, fn func(pgx.Tx) error) error {
	tx, err := s.cfg.Pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("starting a transaction: %w", err)
	}
	defer tx.Rollback(ctx)
	if err := fn(tx); err != nil {
		return err
	}
	// Delivered at commit to every replica's listener.
	if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, person); err != nil {
		return fmt.Errorf("announcing the change: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("committing the sessions: %w", err)
	}
	return nil
}

// Device is one of the person's desktops and the sessions it shares.
type Device struct {
	// ID names the desktop to the page (a digest of its sign-in, which
	// it never reveals) for answers.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Answers: the desktop takes answers from the page (its switch).
	Answers   bool      `json:"answers"`
	UpdatedAt time.Time `json:"updated_at"`
	// Current marks the desktop that asked (GET from a desktop).
	Current  bool      `json:"current,omitempty"`
	Sessions []Session `json:"sessions"`
}

// Shared is what a person reads: their desktops that share, each with its
// sessions in the order it sent them.
type Shared struct {
	Devices []Device `json:"devices"`
}

// Shared lists person's shared sessions from every desktop that is still
// signed in and spoke within StaleAfter; current names the asking
// desktop's device key ("" for a browser or an assistant). Only person's
// own rows are ever read.
func (s *Service) Shared(ctx context.Context, person, current string) (Shared, error) {
	now := s.cfg.Now()
	rows, err := s.cfg.Pool.Query(ctx, `SELECT d.device, d.name, d.updated_at, d.answers, s.kind, s.title, s.state, s.line, s.sid, s.since, s.choices, s.asks
		FROM shared_session_devices d LEFT JOIN shared_sessions s ON s.person_id = d.person_id AND s.device = d.device
		WHERE d.person_id = $1 AND d.updated_at > $2
		  AND EXISTS (SELECT 1 FROM teamauth_desktop_tokens t
		              WHERE t.family = d.device AND t.person_id = d.person_id AND NOT t.revoked AND t.expires_at > $3)
		ORDER BY d.updated_at DESC, d.device, s.position`, person, now.Add(-StaleAfter), now)
	if err != nil {
		return Shared{}, fmt.Errorf("reading shared sessions: %w", err)
	}
	defer rows.Close()
	out := Shared{Devices: []Device{}}
	last := ""
	for rows.Next() {
		var key, name string
		var at time.Time
		var answers bool
		var kind, title, state, line, sid, asks *string
		var since *int64
		var choices *int
		if err := rows.Scan(&key, &name, &at, &answers, &kind, &title, &state, &line, &sid, &since, &choices, &asks); err != nil {
			return Shared{}, fmt.Errorf("reading shared sessions: %w", err)
		}
		if key != last || len(out.Devices) == 0 {
			out.Devices = append(out.Devices, Device{ID: DeviceID(key), Name: name, Answers: answers, UpdatedAt: at, Current: key == current && current != "", Sessions: []Session{}})
			last = key
		}
		if kind != nil {
			d := &out.Devices[len(out.Devices)-1]
			d.Sessions = append(d.Sessions, Session{Kind: *kind, Title: *title, State: *state, Line: *line, ID: *sid, Since: *since, Choices: *choices, Asks: *asks})
		}
	}
	if err := rows.Err(); err != nil {
		return Shared{}, fmt.Errorf("reading shared sessions: %w", err)
	}
	return out, nil
}
