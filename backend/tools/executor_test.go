package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type fakeApprover struct {
	answer ApprovalDecision
	err    error
	asked  []ApprovalRequest
}

func (f *fakeApprover) RequestApproval(ctx context.Context, r ApprovalRequest) (ApprovalDecision, error) {
	f.asked = append(f.asked, r)
	return f.answer, f.err
}

func testTool(name string, m Meta, ran *atomic.Int64) Tool {
	m.Name = name
	m.InputSchema = json.RawMessage(`{"type":"object"}`)
	return Tool{Meta: m, Handler: func(ctx context.Context, c Call) (Result, error) {
		ran.Add(1)
		if name == "boom" {
			panic("tool bug")
		}
		return Result{Text: "ok from " + c.Workspace}, nil
	}}
}

func TestExecutorGate(t *testing.T) {
	yes := ApprovalDecision{Approved: true}
	no := ApprovalDecision{Approved: false, Reason: "not now"}
	cases := []struct {
		name      string
		call      Call
		channel   *ChannelPolicy
		approver  *fakeApprover
		noApprove bool // executor without an approver
		wantRan   bool
		wantErr   bool // Go error (not a tool error)
		wantText  string
		decision  string
		wantAsked int
	}{
		{name: "read tool unattended", call: Call{Tool: "read"}, wantRan: true, wantText: "ok from ws", decision: DecisionRan},
		{name: "unknown tool", call: Call{Tool: "nope", Watched: true}, wantText: `unknown tool "nope"`, decision: DecisionUnknown},
		{name: "write in plan mode", call: Call{Tool: "write", Watched: true, PlanMode: true}, wantText: "plan mode: write changes things; switch plan mode off in the chat to allow it", decision: DecisionPlanMode},
		{name: "plan mode refuses before asking", call: Call{Tool: "screen", Watched: true, PlanMode: true}, approver: &fakeApprover{answer: yes}, wantText: "plan mode: screen changes things", decision: DecisionPlanMode, wantAsked: 0},
		{name: "read in plan mode", call: Call{Tool: "read", PlanMode: true}, wantRan: true, decision: DecisionRan},
		{name: "attended-only tool unattended", call: Call{Tool: "write"}, wantText: "must run with a person present", decision: DecisionUnattended},
		{name: "approval tool unattended never waits", call: Call{Tool: "screen"}, approver: &fakeApprover{answer: yes}, wantText: "needs the user's approval and nobody is watching", decision: DecisionUnattended},
		{name: "approval tool watched, approved", call: Call{Tool: "screen", Watched: true}, approver: &fakeApprover{answer: yes}, wantRan: true, decision: DecisionRan, wantAsked: 1},
		{name: "approval tool watched, declined", call: Call{Tool: "screen", Watched: true}, approver: &fakeApprover{answer: no}, wantText: "declined", decision: DecisionDeclined, wantAsked: 1},
		{name: "approval wait cancelled", call: Call{Tool: "screen", Watched: true}, approver: &fakeApprover{err: context.Canceled}, wantErr: true, decision: DecisionNoAnswer, wantAsked: 1},
		{name: "no approver means no", call: Call{Tool: "screen", Watched: true}, noApprove: true, wantText: "declined", decision: DecisionDeclined},
		{name: "channel disables one tool", call: Call{Tool: "read", Channel: "slack"}, channel: &ChannelPolicy{Disabled: []string{"read"}}, wantText: `read is turned off for "slack" runs in Settings → Tool policy`, decision: DecisionChannel},
		{name: "channel disables all", call: Call{Tool: "write", Channel: "slack", Watched: true}, channel: &ChannelPolicy{Disabled: []string{"*"}}, wantText: "turned off", decision: DecisionChannel},
		{name: "other channel unaffected", call: Call{Tool: "read", Channel: "web"}, channel: &ChannelPolicy{Disabled: []string{"*"}}, wantRan: true, decision: DecisionRan},
		{name: "channel forces approval", call: Call{Tool: "write", Channel: "slack", Watched: true}, channel: &ChannelPolicy{ForceApproval: []string{"write"}}, approver: &fakeApprover{answer: no}, wantText: "declined", decision: DecisionDeclined, wantAsked: 1},
		{name: "forced approval unattended refused", call: Call{Tool: "read", Channel: "slack"}, channel: &ChannelPolicy{ForceApproval: []string{"*"}}, approver: &fakeApprover{answer: yes}, wantText: "needs the user's approval", decision: DecisionUnattended},
		{name: "panicking tool", call: Call{Tool: "boom"}, wantRan: true, wantErr: true, decision: DecisionFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ran atomic.Int64
			audit := &MemoryAuditor{}
			opts := Options{Auditor: audit, Now: func() time.Time { return time.Unix(1700000000, 0) }}
			if c.approver != nil {
				opts.Approver = c.approver
			}
			e := NewExecutor(opts)
			for _, tl := range []Tool{
				testTool("read", Meta{ReadOnly: true, Unattended: true}, &ran),
				testTool("write", Meta{}, &ran),
				testTool("screen", Meta{NeedsApproval: true}, &ran),
				testTool("boom", Meta{ReadOnly: true, Unattended: true}, &ran),
			} {
				if err := e.Register(tl); err != nil {
					t.Fatal(err)
				}
			}
			if c.channel != nil {
				e.SetChannelPolicy("slack", *c.channel)
			}
			c.call.Workspace = "ws"
			c.call.Args = json.RawMessage(`{"q":1}`)
			res, err := e.Execute(context.Background(), c.call)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, c.wantErr)
			}
			if got := ran.Load() > 0; got != c.wantRan {
				t.Fatalf("handler ran = %v, want %v", got, c.wantRan)
			}
			if c.wantText != "" && !strings.Contains(res.Text, c.wantText) {
				t.Fatalf("text = %q, want it to contain %q", res.Text, c.wantText)
			}
			if !c.wantRan && !c.wantErr && !res.IsError {
				t.Fatalf("a refusal must be a tool error: %+v", res)
			}
			es := audit.Entries()
			if len(es) != 1 || es[0].Decision != c.decision || es[0].Tool != c.call.Tool || es[0].Workspace != "ws" || string(es[0].Args) != `{"q":1}` {
				t.Fatalf("audit = %+v, want one %s entry", es, c.decision)
			}
			if c.approver != nil && len(c.approver.asked) != c.wantAsked {
				t.Fatalf("asked %d times, want %d", len(c.approver.asked), c.wantAsked)
			}
			if c.wantAsked > 0 && string(c.approver.asked[0].Args) != `{"q":1}` {
				t.Fatalf("the approval prompt must show the arguments, got %s", c.approver.asked[0].Args)
			}
		})
	}
}

func TestRegisterValidates(t *testing.T) {
	e := NewExecutor(Options{})
	var n atomic.Int64
	good := testTool("x", Meta{}, &n)
	if err := e.Register(good); err != nil {
		t.Fatal(err)
	}
	if err := e.Register(good); !errors.Is(err, ErrDuplicateTool) {
		t.Fatalf("duplicate: %v", err)
	}
	bad := []Tool{
		{Meta: Meta{Name: "", InputSchema: json.RawMessage(`{}`)}, Handler: good.Handler},
		{Meta: Meta{Name: "a b", InputSchema: json.RawMessage(`{}`)}, Handler: good.Handler},
		{Meta: Meta{Name: "nohandler", InputSchema: json.RawMessage(`{}`)}},
		{Meta: Meta{Name: "noschema"}, Handler: good.Handler},
		{Meta: Meta{Name: "arrayschema", InputSchema: json.RawMessage(`[]`)}, Handler: good.Handler},
	}
	for _, b := range bad {
		if err := e.Register(b); err == nil {
			t.Errorf("registered invalid tool %q", b.Name)
		}
	}
}

func TestApprovalQueue(t *testing.T) {
	var shown, gone []string
	q := NewApprovalQueue(func(r ApprovalRequest) { shown = append(shown, r.ID) }, func(id string) { gone = append(gone, id) })
	e := NewExecutor(Options{Approver: q})
	var ran atomic.Int64
	if err := e.Register(testTool("screen", Meta{NeedsApproval: true}, &ran)); err != nil {
		t.Fatal(err)
	}
	type out struct {
		res Result
		err error
	}
	call := func(ctx context.Context) chan out {
		ch := make(chan out, 1)
		go func() {
			r, err := e.Execute(ctx, Call{Workspace: "w", Tool: "screen", Watched: true, Args: json.RawMessage(`{"text":"ls"}`)})
			ch <- out{r, err}
		}()
		return ch
	}
	waitPending := func() ApprovalRequest {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if p := q.Pending(); len(p) == 1 {
				return p[0]
			}
		}
		t.Fatal("no pending approval")
		return ApprovalRequest{}
	}

	ch := call(context.Background())
	p := waitPending()
	if p.Tool != "screen" || string(p.Args) != `{"text":"ls"}` {
		t.Fatalf("pending = %+v", p)
	}
	if err := q.Resolve("no-such-id", ApprovalDecision{Approved: true}); !errors.Is(err, ErrNoSuchApproval) {
		t.Fatalf("resolve unknown: %v", err)
	}
	if err := q.Resolve(p.ID, ApprovalDecision{Approved: true}); err != nil {
		t.Fatal(err)
	}
	if o := <-ch; o.err != nil || o.res.IsError || ran.Load() != 1 {
		t.Fatalf("approved call: %+v %v ran=%d", o.res, o.err, ran.Load())
	}
	if err := q.Resolve(p.ID, ApprovalDecision{Approved: true}); !errors.Is(err, ErrNoSuchApproval) {
		t.Fatal("a request was answered twice")
	}

	ctx, cancel := context.WithCancel(context.Background())
	ch = call(ctx)
	waitPending()
	cancel()
	if o := <-ch; o.err == nil || !errors.Is(o.err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", o.err)
	}
	if len(q.Pending()) != 0 || ran.Load() != 1 || len(shown) != 2 || len(gone) != 2 {
		t.Fatalf("after cancel: pending %d ran %d shown %d gone %d", len(q.Pending()), ran.Load(), len(shown), len(gone))
	}
}
