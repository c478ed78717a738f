package teamsessions

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// Answers from the Needs you page travel page → server → desktop: the page
// posts one (same-origin, the person's own session that needs them now, on
// a desktop whose "Answer from the team server's page" switch is on), the
// desktop hears of it on its event stream, claims it once, types it only
// through runtime_answer's guard and says what came of it. The same prompt
// (a session's id and since) is answered once: a replayed answer, one to a
// prompt that changed, or one for a desktop whose sign-in was revoked is
// refused.

// AnswerTTL is how long an answer waits for its desktop: one still
// unclaimed after it is never typed (the person has moved on).
const AnswerTTL = 2 * time.Minute

// Answer kinds the page sends.
const (
	AnswerApprove = "approve"
	AnswerDecline = "decline"
	AnswerChoice  = "choice"
	AnswerText    = "text"
)

// Answer states: pending → claimed → answered | gone | failed; off when
// the desktop's switch is off; expired when nobody claimed it in time.
const (
	StatePending  = "pending"
	StateClaimed  = "claimed"
	StateAnswered = "answered"
	StateGone     = "gone"
	StateOff      = "off"
	StateFailed   = "failed"
	StateExpired  = "expired"
)

// MaxAnswerText is the longest text reply.
const MaxAnswerText = 200

// AnswerRequest is the body of POST /api/sessions/answers.
type AnswerRequest struct {
	Device  string `json:"device"`  // Device.ID
	Session string `json:"session"` // Session.ID
	Since   int64  `json:"since"`   // the prompt the page showed
	Answer  string `json:"answer"`  // approve, decline, choice or text
	Choice  int    `json:"choice,omitempty"`
	Text    string `json:"text,omitempty"`
}

// Answer is one answer and what came of it.
type Answer struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	Since   int64  `json:"since"`
	Answer  string `json:"answer"`
	Choice  int    `json:"choice,omitempty"`
	Text    string `json:"text,omitempty"`
	// Origin is the browser it was given in (for the desktop's audit).
	Origin string `json:"origin"`
	State  string `json:"state"`
	Detail string `json:"detail,omitempty"`
}

// Outcome is the body of POST /api/sessions/answers/{id}/result.
type Outcome struct {
	State  string `json:"state"` // answered, gone, off or failed
	Detail string `json:"detail,omitempty"`
}

// DeviceID is the page's name for a desktop's sign-in (its token family,
// which it never shows).
func DeviceID(key string) string {
	h := sha256.Sum256([]byte("osfoundry shared device\x00" + key))
	return hex.EncodeToString(h[:10])
}

func (s *Service) registerAnswers(mount func(pattern string, h http.Handler)) {
	api := s.cfg.Auth.API
	mount("POST /api/sessions/answers", api(s.postAnswer))
	mount("GET /api/sessions/answers/{id}", api(s.getAnswer))
	mount("POST /api/sessions/devices/{id}/revoke", api(s.revokeDevice))
	dev := s.cfg.Auth.DesktopDeviceAPI
	mount("GET /api/sessions/device/answers", dev(s.pendingAnswers))
	mount("POST /api/sessions/device/answers/{id}/claim", dev(s.claimAnswer))
	mount("POST /api/sessions/device/answers/{id}/result", dev(s.answerResult))
}

func (s *Service) postAnswer(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in AnswerRequest
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.Give(r.Context(), p.ID, in, s.origin(r))
}

// origin describes the browser an answer came from, for the audit.
func (s *Service) origin(r *http.Request) string {
	ua := r.UserAgent()
	if ua == "" {
		ua = "a browser"
	}
	if len(ua) > 160 {
		ua = ua[:160]
	}
	return "team server page, browser " + teamauth.BrowserID(s.cfg.Auth.SessionKey(r)) + " (" + strings.Map(func(c rune) rune {
		if c < ' ' || c == 0x7f {
			return ' '
		}
		return c
	}, ua) + ")"
}

func (in AnswerRequest) check() error {
	switch in.Answer {
	case AnswerApprove, AnswerDecline:
		if in.Choice != 0 || in.Text != "" {
			return badInput("%s takes no choice or text", in.Answer)
		}
	case AnswerChoice:
		if in.Choice < 1 || in.Choice > MaxChoices || in.Text != "" {
			return badInput("a choice is a number from 1 to %d the prompt offers, without text", MaxChoices)
		}
	case AnswerText:
		if in.Choice != 0 || strings.TrimSpace(in.Text) == "" || !plain(in.Text, MaxAnswerText) {
			return badInput("a text reply is one line of 1 to %d characters without control characters", MaxAnswerText)
		}
	default:
		return badInput("answer is approve, decline, choice or text")
	}
	if in.Device == "" || in.Session == "" || in.Since <= 0 {
		return badInput("name the desktop, the session and the prompt (device, session, since) as the page lists them")
	}
	return nil
}

// Give records person's answer to the prompt in.Session shows on the
// desktop in.Device, after checking it is theirs, waits now, is the same
// prompt the page showed, and that desktop takes answers from the page.
func (s *Service) Give(ctx context.Context, person string, in AnswerRequest, from string) (Answer, error) {
	if err := in.check(); err != nil {
		return Answer{}, err
	}
	sh, err := s.Shared(ctx, person, "")
	if err != nil {
		return Answer{}, err
	}
	var dev *Device
	for i := range sh.Devices {
		if sh.Devices[i].ID == in.Device {
			dev = &sh.Devices[i]
		}
	}
	if dev == nil {
		return Answer{}, teamauth.Refuse(http.StatusNotFound, "no desktop of yours shares that session now (it was closed, stopped sharing or its sign-in was revoked): reload the page")
	}
	var ss *Session
	for i := range dev.Sessions {
		if dev.Sessions[i].ID == in.Session {
			ss = &dev.Sessions[i]
		}
	}
	switch {
	case ss == nil:
		return Answer{}, teamauth.Refuse(http.StatusNotFound, "that session is no longer on %s: reload the page", dev.Name)
	case ss.State != NeedsYou || ss.Since != in.Since:
		return Answer{}, teamauth.Refuse(http.StatusConflict, "that prompt is no longer waiting on %s (it was answered at the desk or changed): nothing was sent", dev.Name)
	case ss.Kind != "terminal" && ss.Asks == "":
		return Answer{}, teamauth.Refuse(http.StatusConflict, "this session takes no answer from this page: answer it on %s", dev.Name)
	case ss.Asks == AsksApproval && in.Answer != AnswerApprove && in.Answer != AnswerDecline:
		return Answer{}, badInput("this session asks to approve or decline a tool call: answer approve or decline")
	case ss.Asks == AsksReply && in.Answer != AnswerText:
		return Answer{}, badInput("this chat asks a question: answer with a text reply")
	case !dev.Answers:
		return Answer{}, teamauth.Refuse(http.StatusConflict, `answers from this page are off on %s: turn on "Answer from the team server's page" in its Settings → Team`, dev.Name)
	case in.Answer == AnswerChoice && ss.Choices > 0 && in.Choice > ss.Choices:
		return Answer{}, badInput("the prompt offers %d choices: pick one of them", ss.Choices)
	}
	keys, err := s.deviceKeys(ctx, person, in.Device)
	if err != nil {
		return Answer{}, err
	}
	if len(keys) != 1 {
		return Answer{}, teamauth.Refuse(http.StatusNotFound, "no desktop of yours shares that session now: reload the page")
	}
	a := Answer{ID: newID(), Session: in.Session, Since: in.Since, Answer: in.Answer, Choice: in.Choice, Text: in.Text, Origin: from, State: StatePending}
	err = s.inTx(ctx, person, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO shared_session_answers (id, person_id, device, sid, since, answer, choice, text, origin, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (person_id, device, sid, since) DO NOTHING`,
			a.ID, person, keys[0], a.Session, a.Since, a.Answer, a.Choice, a.Text, a.Origin, s.cfg.Now())
		if err != nil {
			return fmt.Errorf("keeping the answer: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return teamauth.Refuse(http.StatusConflict, "this prompt was already answered from the page: nothing more was sent")
		}
		return nil
	})
	return a, err
}

// deviceKeys are person's device keys whose DeviceID is id (one at most).
func (s *Service) deviceKeys(ctx context.Context, person, id string) ([]string, error) {
	rows, err := s.cfg.Pool.Query(ctx, `SELECT device FROM shared_session_devices WHERE person_id = $1`, person)
	if err != nil {
		return nil, fmt.Errorf("reading your desktops: %w", err)
	}
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("reading your desktops: %w", err)
	}
	var out []string
	for _, k := range keys {
		if DeviceID(k) == id {
			out = append(out, k)
		}
	}
	return out, nil
}

// revokeDevice signs one of the person's sharing desktops out from the
// page: its tokens stop at once, so it can neither share nor claim an
// answer any more, and its sessions leave the page.
func (s *Service) revokeDevice(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	keys, err := s.deviceKeys(r.Context(), p.ID, r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	if len(keys) != 1 {
		return nil, teamauth.Refuse(http.StatusNotFound, "no desktop of yours with that id: reload the page")
	}
	if _, err := s.cfg.Auth.RevokeDesktop(r.Context(), p.ID, keys[0]); err != nil {
		return nil, err
	}
	return nil, s.Delete(r.Context(), p.ID, keys[0])
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return "ans_" + hex.EncodeToString(b)
}

const answerColumns = `id, sid, since, answer, choice, text, origin, state, detail`

func scanAnswer(r pgx.CollectableRow) (Answer, error) {
	var a Answer
	err := r.Scan(&a.ID, &a.Session, &a.Since, &a.Answer, &a.Choice, &a.Text, &a.Origin, &a.State, &a.Detail)
	return a, err
}

func (s *Service) getAnswer(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	return s.AnswerOf(r.Context(), p.ID, r.PathValue("id"))
}

// AnswerOf is person's answer id and what came of it (theirs only).
func (s *Service) AnswerOf(ctx context.Context, person, id string) (Answer, error) {
	rows, err := s.cfg.Pool.Query(ctx, `SELECT `+answerColumns+` FROM shared_session_answers WHERE id = $1 AND person_id = $2`, id, person)
	if err != nil {
		return Answer{}, fmt.Errorf("reading the answer: %w", err)
	}
	a, err := pgx.CollectExactlyOneRow(rows, scanAnswer)
	if errors.Is(err, pgx.ErrNoRows) {
		return Answer{}, teamauth.Refuse(http.StatusNotFound, "no answer of yours with that id: answer again from the page")
	}
	if err != nil {
		return Answer{}, fmt.Errorf("reading the answer: %w", err)
	}
	return a, nil
}

// pendingAnswers lists what waits for the calling desktop, after marking
// the ones nobody claimed in time as expired.
func (s *Service) pendingAnswers(_ http.ResponseWriter, r *http.Request, p teamauth.Person, d teamauth.Device) (any, error) {
	return s.Pending(r.Context(), p.ID, d.Key)
}

// Pending lists the answers waiting for device of person, oldest first.
func (s *Service) Pending(ctx context.Context, person, device string) ([]Answer, error) {
	p, d := teamauth.Person{ID: person}, teamauth.Device{Key: device}
	if tag, err := s.cfg.Pool.Exec(ctx, `UPDATE shared_session_answers SET state = 'expired', done_at = $3
		WHERE person_id = $1 AND device = $2 AND state = 'pending' AND created_at < $4`, p.ID, d.Key, s.cfg.Now(), s.cfg.Now().Add(-AnswerTTL)); err != nil {
		return nil, fmt.Errorf("expiring old answers: %w", err)
	} else if tag.RowsAffected() > 0 {
		_, _ = s.cfg.Pool.Exec(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, p.ID)
	}
	rows, err := s.cfg.Pool.Query(ctx, `SELECT `+answerColumns+` FROM shared_session_answers
		WHERE person_id = $1 AND device = $2 AND state = 'pending' ORDER BY created_at`, p.ID, d.Key)
	if err != nil {
		return nil, fmt.Errorf("reading the answers for this desktop: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanAnswer)
	if err != nil {
		return nil, fmt.Errorf("reading the answers for this desktop: %w", err)
	}
	if out == nil {
		out = []Answer{}
	}
	return out, nil
}

// claimAnswer hands the answer to its desktop once: a second claim (a
// replay, another replica, a restarted desktop) is refused.
func (s *Service) claimAnswer(_ http.ResponseWriter, r *http.Request, p teamauth.Person, d teamauth.Device) (any, error) {
	return s.Claim(r.Context(), p.ID, d.Key, r.PathValue("id"))
}

// Claim hands answer id to device of person, once.
func (s *Service) Claim(ctx context.Context, person, device, id string) (Answer, error) {
	var a Answer
	p, d := teamauth.Person{ID: person}, teamauth.Device{Key: device}
	err := s.inTx(ctx, p.ID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE shared_session_answers SET state = 'claimed', claimed_at = $4
			WHERE id = $1 AND person_id = $2 AND device = $3 AND state = 'pending' AND created_at >= $5 RETURNING `+answerColumns,
			id, p.ID, d.Key, s.cfg.Now(), s.cfg.Now().Add(-AnswerTTL))
		if err != nil {
			return fmt.Errorf("claiming the answer: %w", err)
		}
		a, err = pgx.CollectExactlyOneRow(rows, scanAnswer)
		if errors.Is(err, pgx.ErrNoRows) {
			return teamauth.Refuse(http.StatusConflict, "this answer was already taken, has expired or is not for this computer: nothing is to be typed")
		}
		return err
	})
	return a, err
}

func (s *Service) answerResult(_ http.ResponseWriter, r *http.Request, p teamauth.Person, d teamauth.Device) (any, error) {
	var in Outcome
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return nil, s.Finish(r.Context(), p.ID, d.Key, r.PathValue("id"), in)
}

// Finish keeps what came of answer id, which device of person claimed
// (or, for off, refuses without claiming).
func (s *Service) Finish(ctx context.Context, person, device, id string, in Outcome) error {
	switch in.State {
	case StateAnswered, StateGone, StateOff, StateFailed:
	default:
		return badInput("the result is answered, gone, off or failed")
	}
	if !plain(in.Detail, MaxLine) {
		in.Detail = ""
	}
	return s.inTx(ctx, person, func(tx pgx.Tx) error {
		// off may refuse an answer never claimed; the rest end a claim.
		tag, err := tx.Exec(ctx, `UPDATE shared_session_answers SET state = $5, detail = $6, done_at = $4
			WHERE id = $1 AND person_id = $2 AND device = $3 AND (state = 'claimed' OR (state = 'pending' AND $5 = 'off'))`,
			id, person, device, s.cfg.Now(), in.State, in.Detail)
		if err != nil {
			return fmt.Errorf("keeping the answer's result: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return teamauth.Refuse(http.StatusConflict, "this answer is not claimed by this computer: claim it first")
		}
		return nil
	})
}
