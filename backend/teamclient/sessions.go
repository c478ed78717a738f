package teamclient

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
)

// SessionShare is "Share this computer's sessions" (TEAM.md, principle 7):
// while the person has it on, this desktop's Sessions board — for each
// session its kind, title, state, board key and since when, and only
// while it needs the person the line the detector matched and how many
// numbered choices its prompt offers — is sent to the team server, where their
// other devices and the assistants they connected can read it. Each upload
// replaces the last; turning it off removes the list from the server at
// once, or, offline, as soon as the server can be reached (kept in the
// app's database until then). Terminal text, pane history and External
// agents never leave the desktop.
//
// It also reads the person's sessions on their other devices, live, for
// Settings → Team.
type SessionShare struct {
	c    *Client
	db   *sql.DB
	log  *slog.Logger
	emit Emitter

	pass sync.Mutex // one upload or removal at a time, in order

	mu      sync.Mutex // guards the fields below
	cards   []SharedSession
	sent    []SharedSession
	sentAt  time.Time
	problem string // why the last upload or removal did not happen
	others  SharedSessions
	panes   map[string]string     // a terminal session's ID → its pane id
	apps    map[string]appSession // a chat's or agent run's ID → it
	app     AppAnswerer           // answers the app's own sessions (nil: none)

	typist Typist      // types the page's answers (nil: none taken)
	taking sync.Mutex  // one round of answers at a time
	again  atomic.Bool // an answer may have arrived during the round

	wake chan struct{}
}

// EventSessions carries SessionsView whenever the switch, its standing
// with the server or the other devices' sessions change.
const EventSessions = "team:sessions"

// heartbeat is how often an unchanged list is sent again, so the server
// (which forgets a desktop silent for three minutes) keeps showing it.
const heartbeat = time.Minute

// SharedDevice is one of the person's desktops and the sessions it shares.
type SharedDevice struct {
	Name string `json:"name"`
	// UpdatedAt is when it last spoke (RFC 3339, as the server said).
	UpdatedAt string `json:"updated_at"`
	// Current is this desktop.
	Current  bool            `json:"current"`
	Sessions []SharedSession `json:"sessions"`
}

// SharedSessions is what the server answers for the person.
type SharedSessions struct {
	Devices []SharedDevice `json:"devices"`
}

// SessionsView is what Settings → Team shows.
type SessionsView struct {
	// Sharing is the switch.
	Sharing bool `json:"sharing"`
	// Pending: the switch is off but the server still has the list (it
	// could not be reached); it is removed as soon as it can be.
	Pending bool `json:"pending"`
	// Message says what is not done yet and why ("" when all is done).
	Message string `json:"message"`
	// Devices are the person's desktops that share, this one included
	// (Current) while it does.
	Devices []SharedDevice `json:"devices"`
	// Answers is "Answer from the team server's page": off until the
	// person turns it on; while off, nothing the page sends is typed.
	Answers bool `json:"answers"`
}

// NewSessionShare keeps the switch in db (the app's database).
func NewSessionShare(ctx context.Context, c *Client, db *sql.DB, emit Emitter, log *slog.Logger) (*SessionShare, error) {
	if db == nil {
		return nil, errors.New("sharing sessions needs the app's database")
	}
	if err := migrateSessions(ctx, db); err != nil {
		return nil, err
	}
	if emit == nil {
		emit = noEmit{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &SessionShare{c: c, db: db, emit: emit, log: log, wake: make(chan struct{}, 1)}, nil
}

func (s *SessionShare) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// SetCards takes the board's sessions now (SessionsFromBoard); a list that
// differs from the one sent goes up at once while sharing is on.
func (s *SessionShare) SetCards(cards []SharedSession) {
	s.mu.Lock()
	s.cards = cards
	changed := !reflect.DeepEqual(cards, s.sent)
	s.mu.Unlock()
	if changed {
		s.poke()
	}
}

// Tee passes every event on to next and reads the Sessions board's cards
// from its board:changed events (the board's Emitter in the app).
func (s *SessionShare) Tee(next Emitter) Emitter { return tee{next: next, s: s} }

type tee struct {
	next Emitter
	s    *SessionShare
}

// boardChanged is board.EventChanged (the board is not imported: only
// the fields sharing sends are read from its cards).
const boardChanged = "board:changed"

func (t tee) Emit(event string, payload any) {
	t.next.Emit(event, payload)
	if event != boardChanged {
		return
	}
	cards, err := SessionsFromBoard(payload)
	if err != nil {
		t.s.log.Warn("reading the board for session sharing", "error", err.Error())
		return
	}
	t.s.notePanes(payload, cards)
	t.s.SetCards(cards)
}

// SetSharing turns sharing on or off. Off removes the list from the server
// now; offline, the removal waits in the app's database and happens as
// soon as the server is back (the view says so).
func (s *SessionShare) SetSharing(ctx context.Context, on bool) (SessionsView, error) {
	s.pass.Lock()
	st, err := s.loadState(ctx)
	if err == nil {
		st.sharing, st.pendingDelete = on, !on
		err = s.saveState(ctx, st)
	}
	if err == nil {
		s.mu.Lock()
		s.sent, s.sentAt, s.problem = nil, time.Time{}, ""
		s.mu.Unlock()
		if on {
			s.upload(ctx, st)
		} else {
			s.remove(ctx)
		}
	}
	s.pass.Unlock()
	s.poke()
	v := s.View(ctx)
	s.emit.Emit(EventSessions, v)
	return v, err
}

// View is the switch, what is not done yet, and the last list of the
// person's sharing desktops.
func (s *SessionShare) View(ctx context.Context) SessionsView {
	st, err := s.loadState(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	v := SessionsView{Sharing: st.sharing, Pending: st.pendingDelete, Message: s.problem, Devices: s.others.Devices, Answers: st.answers}
	if err != nil {
		v.Message = err.Error()
	}
	if v.Devices == nil {
		v.Devices = []SharedDevice{}
	}
	return v
}

// Sync does what the switch asks now: a removal still owed, or an upload
// of a list that changed (or was last sent a heartbeat ago).
func (s *SessionShare) Sync(ctx context.Context) {
	s.pass.Lock()
	defer s.pass.Unlock()
	st, err := s.loadState(ctx)
	if err != nil {
		s.setProblem(err.Error())
		return
	}
	switch {
	case st.pendingDelete:
		s.remove(ctx)
	case st.sharing:
		s.mu.Lock()
		due := s.sentAt.IsZero() || !reflect.DeepEqual(s.cards, s.sent) || time.Since(s.sentAt) >= heartbeat
		s.mu.Unlock()
		if due {
			s.upload(ctx, st)
		}
	}
}

// upload sends the board's list (the pass is held).
func (s *SessionShare) upload(ctx context.Context, st shareState) {
	if !st.sharing {
		return
	}
	s.mu.Lock()
	cards := s.cards
	if cards == nil {
		cards = []SharedSession{}
	}
	s.mu.Unlock()
	body := map[string]any{"sessions": cards}
	if st.answers && s.typist != nil {
		body["answers"] = true
	}
	_, err := s.c.Call(ctx, http.MethodPut, "/api/sessions/device", body, nil)
	switch {
	case errors.Is(err, errNotJoined):
		s.setProblem("This computer is not signed in to a team server: its sessions will be shared once it is.")
	case IsUnreachable(err):
		s.setProblem("The team server cannot be reached: this computer's sessions will be shared when it is back.")
	case err != nil:
		s.setProblem("The team server did not take this computer's sessions: " + err.Error())
	default:
		s.mu.Lock()
		s.sent, s.sentAt, s.problem = cards, time.Now(), ""
		s.mu.Unlock()
	}
}

// remove deletes this desktop's list on the server (the pass is held) and
// forgets the removal once done. A desktop no longer signed in has
// nothing there that anyone can read: its sign-in ended.
func (s *SessionShare) remove(ctx context.Context) {
	_, err := s.c.Call(ctx, http.MethodDelete, "/api/sessions/device", nil, nil)
	var grant *errGrant
	switch {
	case err == nil, errors.Is(err, errNotJoined), errors.As(err, &grant):
	case IsUnreachable(err):
		s.setProblem("The team server cannot be reached: this computer's sessions will be removed from it as soon as it is back.")
		return
	default:
		s.setProblem("The team server did not remove this computer's sessions yet (" + err.Error() + "): it is asked again every few seconds.")
		return
	}
	st, err := s.loadState(ctx)
	if err == nil {
		st.sharing, st.pendingDelete = false, false
		err = s.saveState(ctx, st)
	}
	if err != nil {
		s.setProblem(err.Error())
		return
	}
	s.setProblem("")
}

func (s *SessionShare) setProblem(msg string) {
	s.mu.Lock()
	changed := s.problem != msg
	s.problem = msg
	s.mu.Unlock()
	if changed {
		s.emit.Emit(EventSessions, s.View(context.Background()))
	}
}
