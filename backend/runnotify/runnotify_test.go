package runnotify

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/approvals"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/instance"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/tools"
)

// fakeRuns is the pipeline's recorded runs and chats.
type fakeRuns struct {
	runs  map[string]runs.Run
	chats map[string]chat.Chat
}

func (f fakeRuns) GetRun(_ context.Context, id string) (runs.Run, error) {
	r, ok := f.runs[id]
	if !ok {
		return runs.Run{}, fmt.Errorf("no run %s", id)
	}
	return r, nil
}

func (f fakeRuns) GetChat(_ context.Context, id string) (chat.ChatDetail, error) {
	c, ok := f.chats[id]
	if !ok {
		return chat.ChatDetail{}, chat.ErrNoChat
	}
	return chat.ChatDetail{Chat: c}, nil
}

type shown struct {
	mu  sync.Mutex
	got []detect.Notification
}

func (s *shown) show(n detect.Notification) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, n)
}

func (s *shown) list() []detect.Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]detect.Notification(nil), s.got...)
}

var world = fakeRuns{
	runs: map[string]runs.Run{
		"r1": {ID: "r1", ChatID: "chat-1", Title: "Old title", Model: "cli:claude:agent"},
		"r2": {ID: "r2", Title: "Release helper", Model: "cli:codex:agent"},
	},
	chats: map[string]chat.Chat{"chat-1": {ID: "chat-1", Title: "Ship the beta"}},
}

// asking is the app's real approval queue with n listening; ask raises one
// request from a run's bridge, leaves it waiting and returns once n heard it.
type asking struct {
	q     *tools.ApprovalQueue
	heard chan struct{}
}

func newAsking(n *Notifier) *asking {
	a := &asking{heard: make(chan struct{}, 16)}
	a.q = approvals.NewQueue(nil, nil, func(r tools.ApprovalRequest) {
		n.Asked(r)
		a.heard <- struct{}{}
	})
	return a
}

func (a *asking) ask(t *testing.T, run, tool string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go a.q.RequestApproval(ctx, tools.ApprovalRequest{Tool: tool, Source: "bridge:" + run, Args: json.RawMessage(`{}`)}) //nolint:errcheck // ends with the test
	select {
	case <-a.heard:
	case <-time.After(30 * time.Second):
		t.Fatalf("the request of %s never reached the notifier", run)
	}
}

// A chat whose run waits for an approval raises "Needs you · <chat title>"
// once; more requests within the pane cooldown ring nothing; after the
// cooldown the next one rings again. An agent run outside a chat rings
// under its own title and key.
func TestApprovalWaitingRunNotifiesOnceWithinCooldown(t *testing.T) {
	clock := detect.NewManualClock(time.Unix(1_700_000_000, 0))
	var s shown
	n := New(world, clock, s.show)
	q := newAsking(n)

	q.ask(t, "r1", "runtime_send")
	q.ask(t, "r1", "runtime_answer")
	clock.Advance(detect.NotifyCooldown - time.Second)
	q.ask(t, "r1", "runtime_send")
	got := s.list()
	if len(got) != 1 {
		t.Fatalf("within the cooldown: %d notifications, want 1: %+v", len(got), got)
	}
	if got[0].Title != "Needs you · Ship the beta" || got[0].Session != "chat:chat-1" || got[0].State != detect.Blocked {
		t.Errorf("chat notification = %+v", got[0])
	}
	if want := "Claude Code asks to use runtime_send and waits for your approval."; got[0].Body != want {
		t.Errorf("body = %q, want %q", got[0].Body, want)
	}

	q.ask(t, "r2", "runtime_send")
	clock.Advance(2 * time.Second) // past the chat's cooldown
	q.ask(t, "r1", "runtime_send")
	got = s.list()
	if len(got) != 3 {
		t.Fatalf("after the cooldown and for another run: %d notifications, want 3: %+v", len(got), got)
	}
	if got[1].Title != "Needs you · Release helper" || got[1].Session != "run:r2" || got[1].Body != "Codex asks to use runtime_send and waits for your approval." {
		t.Errorf("run notification = %+v", got[1])
	}
	if got[2].Session != "chat:chat-1" {
		t.Errorf("after the cooldown = %+v", got[2])
	}
}

// Requests that come from no run of the pipeline ring nothing here (a
// terminal pane has its own notifications), nor do runs the pipeline
// does not know.
func TestRequestsFromElsewhereRingNothing(t *testing.T) {
	var s shown
	n := New(world, detect.NewManualClock(time.Unix(0, 0)), s.show)
	n.Asked(tools.ApprovalRequest{Tool: "runtime_send", Source: "connect:c1"})
	n.Asked(tools.ApprovalRequest{Tool: "runtime_send", Source: "bridge:gone"})
	if got := s.list(); len(got) != 0 {
		t.Fatalf("notified %+v", got)
	}
}

// Clicking the notification opens that chat or run: on Linux and macOS
// the click hands back the key; on Windows the toast's osfoundry:// link
// comes back to the running window, which opens what it names.
func TestClickOpensTheChatOrRun(t *testing.T) {
	inst, err := instance.Claim(t.TempDir(), instance.Launch{}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(inst.Close)
	for _, c := range []struct{ key, route string }{
		{"chat:chat-1", "/chat?chat=chat-1"},
		{"run:r2", "/agents"},
	} {
		if got, ok := Route(c.key); !ok || got != c.route {
			t.Errorf("Route(%q) = %q, %v; want %q", c.key, got, ok, c.route)
		}
		kind, id, ok := LinkOf(c.key)
		if !ok {
			t.Fatalf("LinkOf(%q) gave no link", c.key)
		}
		k, i, err := inst.Open(inst.Link(kind, id))
		if err != nil {
			t.Fatalf("opening the link of %s: %v", c.key, err)
		}
		if got, ok := RouteOfLink(k, i); !ok || got != c.route {
			t.Errorf("the link of %s opens %q, %v; want %q", c.key, got, ok, c.route)
		}
	}
	for _, key := range []string{"p-3", "channel:general", "chat:", "chat:../x"} {
		if r, ok := Route(key); ok {
			t.Errorf("Route(%q) = %q; a pane or channel key is not a chat or run", key, r)
		}
	}
	if r, ok := RouteOfLink("pane", "p-3"); ok {
		t.Errorf("a pane link routes to %q", r)
	}
}

// askingChat is a chat whose last answer asks the person something.
type askingChat struct{ fakeRuns }

func (f askingChat) GetChat(_ context.Context, id string) (chat.ChatDetail, error) {
	d, err := f.fakeRuns.GetChat(context.Background(), id)
	d.Chat.State = runs.StateNeedsYou
	d.Runs = []runs.Run{f.runs["r1"]}
	d.Messages = []chat.Message{{Role: "assistant", Text: "Which port should it listen on?", RunID: "r1"}}
	return d, err
}

// A chat's question and an approval request of its run share one
// cooldown: the chat rings once for both.
func TestQuestionAndApprovalShareTheChatCooldown(t *testing.T) {
	clock := detect.NewManualClock(time.Unix(1_700_000_000, 0))
	var s shown
	n := New(askingChat{world}, clock, s.show)
	n.Answered("chat-1")
	newAsking(n).ask(t, "r1", "runtime_send")
	got := s.list()
	if len(got) != 1 || got[0].Title != "Needs you · Ship the beta" || got[0].Session != "chat:chat-1" ||
		got[0].Body != "Claude Code is waiting for your decision." {
		t.Fatalf("notifications = %+v", got)
	}
	clock.Advance(detect.NotifyCooldown)
	n.Answered("chat-1")
	if got := s.list(); len(got) != 2 {
		t.Fatalf("after the cooldown: %d notifications, want 2", len(got))
	}
}
