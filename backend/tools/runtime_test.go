package tools

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// fakePanes is a terminal whose screen changes when read: reads returns
// successive screens, so a test can flip a pane to "waiting" between the
// last sweep and the moment of typing.
type fakePanes struct {
	mu    sync.Mutex
	reads map[string][][]string // successive screens per pane; the last repeats
	sent  []string
}

func (f *fakePanes) List() []PaneInfo {
	return []PaneInfo{{ID: "p1", Title: "claude", Agent: "claude", State: "working"}}
}

func (f *fakePanes) Screen(id string) ([]string, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.reads[id]
	if !ok {
		return nil, "", ErrNoPane
	}
	cur := s[0]
	if len(s) > 1 {
		f.reads[id] = s[1:]
	}
	return cur, "working", nil
}

func (f *fakePanes) Send(id, text string, enter bool) error {
	if enter {
		text += "\r"
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, id+":"+text)
	return nil
}

func blockedScreen(lines []string) bool {
	for _, l := range lines {
		if strings.Contains(l, "Do you want to proceed?") {
			return true
		}
	}
	return false
}

var (
	idle    = []string{"> ", "  ? for shortcuts"}
	waiting = []string{"Bash(rm -rf build)", "Do you want to proceed?", "❯ 1. Yes", "  2. No"}
)

func TestRuntimeTools(t *testing.T) {
	cases := []struct {
		name    string
		tool    string
		screens [][]string
		args    string
		want    string
		isErr   bool
		sent    string
	}{
		{"send to idle pane", "runtime_send", [][]string{idle}, `{"id":"p1","text":"run the tests"}`, "typed 13 characters", false, "p1:run the tests\r"},
		{"send without enter", "runtime_send", [][]string{idle}, `{"id":"p1","text":"draft","enter":false}`, "typed", false, "p1:draft"},
		{"send refused while waiting", "runtime_send", [][]string{waiting}, `{"id":"p1","text":"yes"}`, "waiting for a decision", true, ""},
		{"send re-reads at typing time", "runtime_send", [][]string{waiting}, `{"id":"p1","text":"1"}`, "runtime_answer", true, ""},
		{"send escape sequences refused", "runtime_send", [][]string{idle}, `{"id":"p1","text":"\u001b[A\u0003"}`, "control characters", true, ""},
		{"send unknown pane", "runtime_send", [][]string{idle}, `{"id":"p9","text":"x"}`, "runtime_list", true, ""},
		{"answer a waiting pane", "runtime_answer", [][]string{waiting}, `{"id":"p1","answer":"1"}`, "answered", false, "p1:1"},
		{"answer with a key", "runtime_answer", [][]string{waiting}, `{"id":"p1","key":"escape"}`, "answered", false, "p1:\x1b"},
		{"answer refused when not waiting", "runtime_answer", [][]string{idle}, `{"id":"p1","answer":"1"}`, "not waiting", true, ""},
		{"answer unknown key", "runtime_answer", [][]string{waiting}, `{"id":"p1","key":"f13"}`, "unknown key", true, ""},
		{"answer multi-line refused", "runtime_answer", [][]string{waiting}, `{"id":"p1","answer":"1\nrm -rf /"}`, "one short line", true, ""},
		{"read", "runtime_read", [][]string{waiting}, `{"id":"p1","lines":2}`, `"blocked": true`, false, ""},
		{"list", "runtime_list", [][]string{idle}, `{}`, `"id": "p1"`, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &fakePanes{reads: map[string][][]string{"p1": c.screens}}
			ts, err := RuntimeTools(p, blockedScreen)
			if err != nil {
				t.Fatal(err)
			}
			var tl Tool
			for _, x := range ts {
				if x.Name == c.tool {
					tl = x
				}
			}
			res, err := tl.Handler(context.Background(), Call{Args: json.RawMessage(c.args)})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != c.isErr || !strings.Contains(res.Text, c.want) {
				t.Fatalf("got %q (isError %v), want %q (isError %v)", res.Text, res.IsError, c.want, c.isErr)
			}
			if got := strings.Join(p.sent, "|"); got != c.sent {
				t.Fatalf("sent %q, want %q", got, c.sent)
			}
		})
	}
}

// TestSendChecksTheScreenAfterApproval: the pane was idle when the model
// asked, turned into a permission prompt while the user read the approval,
// and the send must not type into it.
func TestSendChecksTheScreenAfterApproval(t *testing.T) {
	p := &fakePanes{reads: map[string][][]string{"p1": {idle}}}
	ts, _ := RuntimeTools(p, blockedScreen)
	q := &fakeApprover{answer: ApprovalDecision{Approved: true}}
	flip := approverFunc(func(ctx context.Context, r ApprovalRequest) (ApprovalDecision, error) {
		p.mu.Lock()
		p.reads["p1"] = [][]string{waiting}
		p.mu.Unlock()
		return q.RequestApproval(ctx, r)
	})
	e := NewExecutor(Options{Approver: flip})
	for _, tl := range ts {
		if err := e.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	// The model reads the idle screen first (the "last sweep").
	if res, _ := e.Execute(context.Background(), Call{Tool: "runtime_read", Args: json.RawMessage(`{"id":"p1"}`)}); !strings.Contains(res.Text, `"blocked": false`) {
		t.Fatalf("read: %s", res.Text)
	}
	res, err := e.Execute(context.Background(), Call{Tool: "runtime_send", Watched: true, Args: json.RawMessage(`{"id":"p1","text":"yes"}`)})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "waiting for a decision") || len(p.sent) != 0 {
		t.Fatalf("send after the screen changed: %q %v sent=%v", res.Text, err, p.sent)
	}
	if len(q.asked) != 1 {
		t.Fatalf("runtime_send must ask the user first (asked %d)", len(q.asked))
	}
	// Unattended: both writers are refused without asking.
	for _, name := range []string{"runtime_send", "runtime_answer"} {
		res, _ := e.Execute(context.Background(), Call{Tool: name, Args: json.RawMessage(`{"id":"p1","answer":"1","text":"x"}`)})
		if !res.IsError || !strings.Contains(res.Text, "nobody is watching") {
			t.Fatalf("%s unattended: %q", name, res.Text)
		}
	}
	if len(q.asked) != 1 {
		t.Fatal("an unattended run raised an approval request")
	}
}

type approverFunc func(ctx context.Context, r ApprovalRequest) (ApprovalDecision, error)

func (f approverFunc) RequestApproval(ctx context.Context, r ApprovalRequest) (ApprovalDecision, error) {
	return f(ctx, r)
}
