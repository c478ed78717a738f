package teamsessions

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// An answer goes only to the person's own session that waits now, on a
// desktop that takes answers; the same prompt is answered once, claimed
// once, and an answer nobody claimed in time is never handed out.
func TestAnswersAreOwnOnceAndChecked(t *testing.T) {
	s, now := service(t)
	since := now.Add(-3 * time.Minute).UnixMilli()
	ask := Session{Kind: "terminal", Title: "Claude Code in api", State: NeedsYou, Line: "Do you want to proceed?", ID: "terminal/p-1", Since: since, Choices: 3}
	chat := Session{Kind: "chat", Title: "Plan", State: NeedsYou, Line: "Which one?", ID: "chat/c-1", Since: since}
	// The app's own sessions that take an answer: a chat's question, an
	// agent run's approval.
	reply := Session{Kind: "chat", Title: "Schema", State: NeedsYou, Line: "Which database?", ID: "chat/c-2", Since: since, Asks: AsksReply}
	approval := Session{Kind: "agent", Title: "Billing", State: NeedsYou, Line: "Asks to use Bash", ID: "agent/r-1", Since: since, Asks: AsksApproval}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.PutUpload(bg, "alice", laptop, Upload{Sessions: []Session{ask, chat, reply, approval}, Answers: true}))
	must(s.PutUpload(bg, "alice", desk, Upload{Sessions: []Session{ask}})) // answers off there
	must(s.PutUpload(bg, "alice", old, Upload{Sessions: []Session{ask}, Answers: true}))
	must(s.PutUpload(bg, "bob", bobs, Upload{Sessions: []Session{ask}, Answers: true}))
	req := func(d teamauth.Device, change func(*AnswerRequest)) AnswerRequest {
		r := AnswerRequest{Device: DeviceID(d.Key), Session: ask.ID, Since: since, Answer: AnswerApprove}
		if change != nil {
			change(&r)
		}
		return r
	}
	for name, c := range map[string]struct {
		person string
		in     AnswerRequest
		code   int
		words  string
	}{
		"bob answers alice's":    {"bob", req(laptop, nil), http.StatusNotFound, "no desktop of yours"},
		"a revoked sign-in":      {"alice", req(old, nil), http.StatusNotFound, "no desktop of yours"},
		"answers off":            {"alice", req(desk, nil), http.StatusConflict, "answers from this page are off on desk"},
		"a prompt that changed":  {"alice", req(laptop, func(r *AnswerRequest) { r.Since++ }), http.StatusConflict, "no longer waiting"},
		"a chat":                 {"alice", req(laptop, func(r *AnswerRequest) { r.Session = chat.ID }), http.StatusConflict, "takes no answer from this page"},
		"approving a question":   {"alice", req(laptop, func(r *AnswerRequest) { r.Session = reply.ID }), http.StatusBadRequest, "answer with a text reply"},
		"a reply to a tool ask":  {"alice", req(laptop, func(r *AnswerRequest) { r.Session, r.Answer, r.Text = approval.ID, AnswerText, "ok" }), http.StatusBadRequest, "approve or decline"},
		"a choice to a tool ask": {"alice", req(laptop, func(r *AnswerRequest) { r.Session, r.Answer, r.Choice = approval.ID, AnswerChoice, 1 }), http.StatusBadRequest, "approve or decline"},
		"a choice not offered":   {"alice", req(laptop, func(r *AnswerRequest) { r.Answer, r.Choice = AnswerChoice, 4 }), http.StatusBadRequest, "offers 3 choices"},
		"text with an escape":    {"alice", req(laptop, func(r *AnswerRequest) { r.Answer, r.Text = AnswerText, "y\x1b[A" }), http.StatusBadRequest, "without control characters"},
		"an unknown answer":      {"alice", req(laptop, func(r *AnswerRequest) { r.Answer = "yes" }), http.StatusBadRequest, "approve, decline, choice or text"},
		"no such session":        {"alice", req(laptop, func(r *AnswerRequest) { r.Session = "terminal/p-9" }), http.StatusNotFound, "no longer on laptop"},
	} {
		_, err := s.Give(bg, c.person, c.in, "test")
		if err == nil || teamauth.HTTPStatus(err) != c.code || !strings.Contains(err.Error(), c.words) {
			t.Errorf("%s: %v (status %d), want %d %q", name, err, teamauth.HTTPStatus(err), c.code, c.words)
		}
	}
	for _, in := range []AnswerRequest{req(laptop, func(r *AnswerRequest) { r.Session, r.Answer, r.Text = reply.ID, AnswerText, "postgres" }),
		req(laptop, func(r *AnswerRequest) { r.Session, r.Answer = approval.ID, AnswerDecline })} {
		if _, err := s.Give(bg, "alice", in, "team server page (phone)"); err != nil {
			t.Fatalf("answering %s: %v", in.Session, err)
		}
	}
	a, err := s.Give(bg, "alice", req(laptop, nil), "team server page (phone)")
	must(err)
	if _, err := s.Give(bg, "alice", req(laptop, func(r *AnswerRequest) { r.Answer = AnswerDecline }), "replay"); teamauth.HTTPStatus(err) != http.StatusConflict {
		t.Fatalf("a second answer to the same prompt: %v", err)
	}
	// Only the laptop sees it; bob's device and alice's desk do not.
	if p, _ := s.Pending(bg, "alice", desk.Key); len(p) != 0 {
		t.Fatalf("the desk sees %+v", p)
	}
	if p, _ := s.Pending(bg, "bob", laptop.Key); len(p) != 0 {
		t.Fatalf("bob sees %+v", p)
	}
	p, err := s.Pending(bg, "alice", laptop.Key)
	must(err)
	bySession := map[string]Answer{}
	for _, x := range p {
		bySession[x.Session] = x
	}
	if len(p) != 3 || bySession[ask.ID].ID != a.ID || bySession[ask.ID].Origin != "team server page (phone)" ||
		bySession[reply.ID].Text != "postgres" || bySession[approval.ID].Answer != AnswerDecline {
		t.Fatalf("pending for the laptop: %+v", p)
	}
	if _, err := s.Claim(bg, "alice", desk.Key, a.ID); teamauth.HTTPStatus(err) != http.StatusConflict {
		t.Fatalf("another desktop claimed it: %v", err)
	}
	got, err := s.Claim(bg, "alice", laptop.Key, a.ID)
	must(err)
	if got.State != StateClaimed || got.Answer != AnswerApprove {
		t.Fatalf("claimed: %+v", got)
	}
	if _, err := s.Claim(bg, "alice", laptop.Key, a.ID); teamauth.HTTPStatus(err) != http.StatusConflict {
		t.Fatalf("claimed twice: %v", err)
	}
	must(s.Finish(bg, "alice", laptop.Key, a.ID, Outcome{State: StateGone}))
	if err := s.Finish(bg, "alice", laptop.Key, a.ID, Outcome{State: StateAnswered}); teamauth.HTTPStatus(err) != http.StatusConflict {
		t.Fatalf("finished twice: %v", err)
	}
	if got, _ := s.AnswerOf(bg, "alice", a.ID); got.State != StateGone {
		t.Fatalf("the page reads %+v", got)
	}
	if _, err := s.AnswerOf(bg, "bob", a.ID); teamauth.HTTPStatus(err) != http.StatusNotFound {
		t.Fatalf("bob reads alice's answer: %v", err)
	}
	// A new prompt of the same session takes a new answer; unclaimed past
	// AnswerTTL it expires and is never handed out.
	ask.Since += 60_000
	must(s.PutUpload(bg, "alice", laptop, Upload{Sessions: []Session{ask}, Answers: true}))
	b, err := s.Give(bg, "alice", req(laptop, func(r *AnswerRequest) { r.Since = ask.Since; r.Answer, r.Choice = AnswerChoice, 2 }), "p")
	must(err)
	*now = now.Add(AnswerTTL + time.Second)
	if p, _ := s.Pending(bg, "alice", laptop.Key); len(p) != 0 {
		t.Fatalf("an expired answer is handed out: %+v", p)
	}
	if _, err := s.Claim(bg, "alice", laptop.Key, b.ID); teamauth.HTTPStatus(err) != http.StatusConflict {
		t.Fatalf("an expired answer was claimed: %v", err)
	}
	if got, _ := s.AnswerOf(bg, "alice", b.ID); got.State != StateExpired {
		t.Fatalf("the page reads %+v", got)
	}
}

func TestWaited(t *testing.T) {
	now := time.UnixMilli(1_800_000_000_000)
	for want, ago := range map[string]time.Duration{"just now": 10 * time.Second, "3 min": 3*time.Minute + 5*time.Second, "2 h": 2*time.Hour + time.Minute, "3 days": 72 * time.Hour} {
		if got := Waited(now, now.Add(-ago).UnixMilli()); got != want {
			t.Errorf("%v ago: %q, want %q", ago, got, want)
		}
	}
}
