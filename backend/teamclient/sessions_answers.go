package teamclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"time"
)

// Answers given on the team server's Needs you page reach this desktop
// only while the person turned on "Answer from the team server's page"
// (off until then). The desktop hears of one on its sessions event stream,
// claims it once (the server refuses a second claim, a replay, an expired
// answer and a revoked sign-in), and hands it to the Typist, which types it
// only through runtime_answer's guard: the screen is re-read at that
// moment and nothing is typed unless the prompt still shows. What came of
// it goes back to the page. With the switch off, a waiting answer is
// refused ("off") and nothing is typed.

// RemoteAnswer is one answer from the page.
type RemoteAnswer struct {
	ID      string `json:"id"`
	Session string `json:"session"` // SharedSession.ID
	Since   int64  `json:"since"`
	Answer  string `json:"answer"` // approve, decline, choice or text
	Choice  int    `json:"choice,omitempty"`
	Text    string `json:"text,omitempty"`
	// Origin is the browser the person answered in (for the audit).
	Origin string `json:"origin"`
	State  string `json:"state"`
	Detail string `json:"detail,omitempty"`
}

// Typist types the page's answers into panes; the app's adapter
// (backend/remoteanswer) uses runtime_answer's guard and audit.
type Typist interface {
	// Choices counts the numbered choices the prompt of pane shows now (0:
	// none, or the pane is not waiting).
	Choices(pane string) int
	// Answer types a into pane if its prompt still shows; typed is false
	// when nothing was typed because the prompt was gone.
	Answer(ctx context.Context, pane string, a RemoteAnswer) (typed bool, err error)
}

// SetTypist gives sharing the app's typist; without one the desktop never
// takes answers and says so to the server.
func (s *SessionShare) SetTypist(t Typist) {
	s.mu.Lock()
	s.typist = t
	s.mu.Unlock()
}

// SetAnswers turns "Answer from the team server's page" on or off, and
// tells the server at once (the page shows answer buttons only while on).
func (s *SessionShare) SetAnswers(ctx context.Context, on bool) (SessionsView, error) {
	s.pass.Lock()
	st, err := s.loadState(ctx)
	if err == nil {
		st.answers = on
		err = s.saveState(ctx, st)
	}
	if err == nil && st.sharing {
		s.upload(ctx, st)
	}
	s.pass.Unlock()
	v := s.View(ctx)
	s.emit.Emit(EventSessions, v)
	if err == nil && !on {
		s.TakeAnswers(ctx) // refuse what already waits
	}
	return v, err
}

// notePanes keeps which pane each shared terminal session is, and counts
// the choices of the prompts that wait.
func (s *SessionShare) notePanes(payload any, cards []SharedSession) {
	data, err := json.Marshal(payload)
	if err != nil {
		return
	}
	var bc []boardCard
	if json.Unmarshal(data, &bc) != nil {
		return
	}
	panes := map[string]string{}
	apps := map[string]appSession{}
	for _, c := range bc {
		switch {
		case c.Kind == "terminal" && c.ID != "":
			panes[cardKey(c)] = c.ID
		case (c.Kind == "chat" || c.Kind == "agent" || c.Kind == "team" || c.Kind == "loop") && c.ID != "":
			apps[cardKey(c)] = appSession{kind: c.Kind, id: c.ID}
		}
	}
	s.mu.Lock()
	s.panes, s.apps = panes, apps
	t, app := s.typist, s.app
	s.mu.Unlock()
	if app != nil {
		askApps(app, apps, cards)
	}
	if t == nil {
		return
	}
	if countChoices(t, panes, cards) {
		// The board turns a card to needs_you as soon as the prompt's first
		// line shows; its menu may be drawn a moment later.
		time.AfterFunc(choicesRecount, func() { s.recount(cards) })
	}
}

// choicesRecount is how long after a prompt appeared its choices are
// counted again when none were seen yet.
const choicesRecount = 300 * time.Millisecond

// countChoices fills in the choices of the waiting terminal sessions;
// it says whether one waits with none seen.
func countChoices(t Typist, panes map[string]string, cards []SharedSession) (unseen bool) {
	for i := range cards {
		if p, ok := panes[cards[i].ID]; ok && cards[i].State == "needs_you" {
			cards[i].Choices = min(max(t.Choices(p), 0), 9)
			unseen = unseen || cards[i].Choices == 0
		}
	}
	return unseen
}

// recount counts the choices of cards again and sends the list if they
// changed and no newer board came meanwhile.
func (s *SessionShare) recount(cards []SharedSession) {
	s.mu.Lock()
	t, panes, current := s.typist, s.panes, s.cards
	s.mu.Unlock()
	if t == nil || !reflect.DeepEqual(current, cards) {
		return
	}
	again := slices.Clone(cards)
	countChoices(t, panes, again)
	if !reflect.DeepEqual(again, cards) {
		s.SetCards(again)
	}
}

// TakeAnswers handles every answer waiting for this desktop. A call while
// a round is under way makes that round run once more, so an answer that
// arrived during it is not left until the next event.
func (s *SessionShare) TakeAnswers(ctx context.Context) {
	s.again.Store(true)
	if !s.taking.TryLock() {
		return
	}
	defer s.taking.Unlock()
	for s.again.Swap(false) && ctx.Err() == nil {
		s.takeRound(ctx)
	}
}

func (s *SessionShare) takeRound(ctx context.Context) {
	st, err := s.loadState(ctx)
	if err != nil || !st.sharing {
		return
	}
	var waiting []RemoteAnswer
	if _, err := s.c.Call(ctx, http.MethodGet, "/api/sessions/device/answers", nil, &waiting); err != nil {
		if ctx.Err() == nil && !errors.Is(err, errNotJoined) {
			s.log.Info("reading the page's answers", "error", err.Error())
		}
		return
	}
	s.mu.Lock()
	t := s.typist
	s.mu.Unlock()
	for _, a := range waiting {
		if !st.answers || t == nil {
			s.result(ctx, a.ID, "off", "")
			continue
		}
		s.take(ctx, t, a)
	}
}

func (s *SessionShare) take(ctx context.Context, t Typist, a RemoteAnswer) {
	path := "/api/sessions/device/answers/" + url.PathEscape(a.ID)
	var got RemoteAnswer
	code, err := s.c.Call(ctx, http.MethodPost, path+"/claim", nil, &got)
	if err != nil || code != http.StatusOK {
		return // claimed elsewhere, expired or refused: not ours to type
	}
	s.mu.Lock()
	pane, ok := s.panes[got.Session]
	as, isApp := s.apps[got.Session]
	app := s.app
	s.mu.Unlock()
	if !ok && (!isApp || app == nil) {
		s.result(ctx, got.ID, "gone", "the session is no longer on this computer")
		return
	}
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	var typed bool
	if ok {
		typed, err = t.Answer(tctx, pane, got)
	} else {
		typed, err = app.Answer(tctx, as.kind, as.id, got)
	}
	cancel()
	switch {
	case err != nil:
		s.result(ctx, got.ID, "failed", oneLineCut(err.Error(), maxSharedLine))
	case !typed:
		s.result(ctx, got.ID, "gone", "")
	default:
		s.result(ctx, got.ID, "answered", "")
	}
}

func (s *SessionShare) result(ctx context.Context, id, state, detail string) {
	_, err := s.c.Call(ctx, http.MethodPost, "/api/sessions/device/answers/"+url.PathEscape(id)+"/result",
		map[string]string{"state": state, "detail": detail}, nil)
	if err != nil && ctx.Err() == nil {
		s.log.Info("telling the page what came of its answer", "error", err.Error())
	}
}
