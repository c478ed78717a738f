package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panehook"
)

// TestMain lets the test binary be a small ACP agent (OSF_ACP_FAKE_AGENT=1):
// each prompt asks permission for one tool call, then says which option
// the client chose.
func TestMain(m *testing.M) {
	if os.Getenv("OSF_ACP_FAKE_AGENT") == "models" {
		a := &modelAgent{current: "default"}
		a.conn = sdk.NewAgentSideConnection(a, os.Stdout, os.Stdin)
		<-a.conn.Done()
		os.Exit(0)
	}
	if os.Getenv("OSF_ACP_FAKE_AGENT") == "1" {
		a := &fakeAgent{}
		a.conn = sdk.NewAgentSideConnection(a, os.Stdout, os.Stdin)
		<-a.conn.Done()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type fakeAgent struct{ conn *sdk.AgentSideConnection }

func (a *fakeAgent) Initialize(context.Context, sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	return sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber, AgentInfo: &sdk.Implementation{Name: "fake-acp", Version: "0.1"}, AuthMethods: []sdk.AuthMethod{}}, nil
}
func (a *fakeAgent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}
func (a *fakeAgent) Cancel(context.Context, sdk.CancelNotification) error { return nil }
func (a *fakeAgent) CloseSession(context.Context, sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	return sdk.CloseSessionResponse{}, nil
}
func (a *fakeAgent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, nil
}
func (a *fakeAgent) NewSession(context.Context, sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	return sdk.NewSessionResponse{SessionId: "s1"}, nil
}
func (a *fakeAgent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, nil
}
func (a *fakeAgent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, nil
}
func (a *fakeAgent) SetSessionMode(context.Context, sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	return sdk.SetSessionModeResponse{}, nil
}

func (a *fakeAgent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	title := "rm -rf build"
	_ = a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId, Update: sdk.StartToolCall("call-1", title)})
	resp, err := a.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: p.SessionId,
		ToolCall:  sdk.ToolCallUpdate{ToolCallId: "call-1", Title: &title},
		Options: []sdk.PermissionOption{
			{OptionId: "always", Name: "Always Allow", Kind: sdk.PermissionOptionKindAllowAlways},
			{OptionId: "once", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "no", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	})
	chose := "cancelled"
	if err == nil && resp.Outcome.Selected != nil {
		chose = string(resp.Outcome.Selected.OptionId)
	}
	// After a session/cancel the SDK has cancelled ctx; the answer is still
	// sent, in two chunks with a line of the adapter's own log between them
	// (claude-agent-acp logs "Unexpected case: …" mid-answer).
	_ = a.conn.SessionUpdate(context.Background(), sdk.SessionNotification{SessionId: p.SessionId, Update: sdk.UpdateAgentMessageText("you chose ")})
	time.Sleep(50 * time.Millisecond)
	fmt.Fprintln(os.Stderr, "fake-acp log: an unexpected case")
	time.Sleep(50 * time.Millisecond)
	_ = a.conn.SessionUpdate(context.Background(), sdk.SessionNotification{SessionId: p.SessionId, Update: sdk.UpdateAgentMessageText(chose + "\n")})
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func waitFor(t *testing.T, out *syncBuf, text string) {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		if strings.Contains(out.String(), text) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("never printed %q; output:\n%s", text, out.String())
}

// The person answers the agent's permission request in the pane: a wrong
// answer asks again (still blocked), a number chooses that option; every
// step is reported in order, the permission open from before it shows
// until the answer.
func TestClientAsksThePersonAndReportsEachStep(t *testing.T) {
	exe, _ := os.Executable()
	in, typed := io.Pipe()
	out := &syncBuf{}
	var mu sync.Mutex
	var events []detect.ACPEvent
	var s detect.ACPStream
	reg, _, err := detect.Load(os.DirFS("../../rules"), "")
	if err != nil {
		t.Fatal(err)
	}
	rules := reg.Get("claude").ACP
	states := []string{}
	done := make(chan error, 1)
	interrupt := make(chan struct{})
	go func() {
		done <- Run(context.Background(), Options{Interrupt: interrupt,
			Argv: []string{exe}, Dir: t.TempDir(), Env: append(os.Environ(), "OSF_ACP_FAKE_AGENT=1"), In: in, Out: out,
			Report: func(ev detect.ACPEvent) {
				ev.Adapter = "claude-agent-acp" // judged by Claude's [acp] rules
				mu.Lock()
				events = append(events, ev)
				if sig, ok := s.Observe(rules, ev); ok {
					states = append(states, string(sig.State))
				}
				mu.Unlock()
			},
		})
	}()
	waitFor(t, out, "Connected to fake-acp 0.1 over ACP")
	typed.Write([]byte("clean the build\n"))
	waitFor(t, out, "Permission needed: rm -rf build")
	waitFor(t, out, "2) Allow")
	typed.Write([]byte("9\n"))
	waitFor(t, out, "Type a number from 1 to 3")
	mu.Lock()
	if got := states[len(states)-1]; got != "blocked" {
		t.Errorf("after a wrong answer the state is %s, want still blocked", got)
	}
	mu.Unlock()
	typed.Write([]byte("2\n"))
	waitFor(t, out, "you chose once")
	waitFor(t, out, "[turn ended: end_turn]")
	// The adapter's log line waited for the turn's end, on a line of its own.
	if !strings.Contains(out.String(), "you chose once\nfake-acp log: an unexpected case\n\n[turn ended: end_turn]") {
		t.Errorf("the adapter's log broke into the answer or was lost:\n%s", out.String())
	}

	// Ctrl-C on the next permission declines it and cancels the turn;
	// Ctrl-C with no turn running leaves.
	typed.Write([]byte("clean it again\n"))
	waitFor(t, out, "Answer with a number: ")
	for strings.Count(out.String(), "Permission needed") < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	interrupt <- struct{}{}
	waitFor(t, out, "you chose cancelled")
	// The notice comes before the adapter's reply to the refusal, not in it.
	if got := out.String(); strings.Index(got, "Declined; cancelling the turn.") > strings.LastIndex(got, "you chose ") {
		t.Errorf("the decline notice cut the agent's answer:\n%s", got)
	}
	for strings.Count(out.String(), "[turn ended") < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	interrupt <- struct{}{}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Ctrl-C with no turn running did not leave")
	}
	mu.Lock()
	defer mu.Unlock()
	var steps []string
	for _, e := range events {
		steps = append(steps, e.From+" "+e.Type+" "+e.Method)
	}
	want := []string{
		"client request initialize",
		"client request session/prompt",
		"agent request session/request_permission",
		"client response session/request_permission",
		"agent response session/prompt",
		"client request session/prompt",
		"agent request session/request_permission",
		"client response session/request_permission",
		"agent response session/prompt",
	}
	if strings.Join(steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(steps, "\n"), strings.Join(want, "\n"))
	}
	if got := strings.Join(states, " "); got != "idle working blocked working idle working blocked working idle" {
		t.Errorf("states %q, want idle once connected, then working blocked working idle, twice", got)
	}
}

// A report the app did not take is sent again; one that still fails is
// said once and the following steps are reported all the same (before,
// one failure stopped every later report: the pane kept its last state).
// Outside a pane nothing is sent or said.
func TestPaneReporterKeepsReportingAfterAFailure(t *testing.T) {
	var got []string
	fails := 4 // the first event fails all three tries, the second once
	send := func(b []byte) error {
		if fails > 0 {
			fails--
			return errors.New("reaching the app: timeout")
		}
		var ev detect.ACPEvent
		json.Unmarshal(b, &ev)
		got = append(got, ev.Method)
		return nil
	}
	var errw strings.Builder
	report := paneReporter(send, &errw, []time.Duration{0, 0})
	for _, m := range []string{"initialize", "session/prompt", "session/request_permission"} {
		report(detect.ACPEvent{Adapter: "claude-agent-acp", From: "client", Type: "request", Method: m})
	}
	if strings.Join(got, ",") != "session/prompt,session/request_permission" {
		t.Errorf("reported %q, want every step after the failed one", got)
	}
	if n := strings.Count(errw.String(), "may not follow"); n != 1 {
		t.Errorf("said %d times: %q", n, errw.String())
	}

	calls := 0
	errw.Reset()
	report = paneReporter(func([]byte) error { calls++; return panehook.ErrNotInPane }, &errw, []time.Duration{0, 0})
	report(detect.ACPEvent{Method: "initialize"})
	report(detect.ACPEvent{Method: "session/prompt"})
	if calls != 1 || errw.Len() != 0 {
		t.Errorf("outside a pane: %d sends, said %q", calls, errw.String())
	}
}
