package detect

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func TestCombinePriority(t *testing.T) {
	scrBlocked := Decision{State: Blocked, Source: FromScreen, Rule: 1}
	scrWorking := Decision{State: Working, Source: FromScreen, Rule: 2}
	scrIdle := Decision{State: Idle, Source: FromScreen, Rule: 3}
	scrNone := Decision{State: Idle, Source: FromDefault}
	rep := func(s State) *Signal { return &Signal{Source: FromHook, State: s} }
	title := func(s State) *Signal { return &Signal{Source: FromTitle, State: s} }
	cases := []struct {
		name   string
		in     Inputs
		state  State
		source Source
	}{
		{"screen prompt beats a stale working report", Inputs{Screen: scrBlocked, Report: rep(Working)}, Blocked, FromScreen},
		{"screen prompt beats an idle report", Inputs{Screen: scrBlocked, Report: rep(Idle)}, Blocked, FromScreen},
		{"screen prompt beats shell in front", Inputs{Screen: scrBlocked, ShellForeground: true}, Blocked, FromScreen},
		{"report beats working screen", Inputs{Screen: scrWorking, Report: rep(Blocked)}, Blocked, FromHook},
		{"report beats idle screen", Inputs{Screen: scrIdle, Report: rep(Working)}, Working, FromHook},
		{"done report is idle over a working screen", Inputs{Screen: scrWorking, Report: &Signal{Source: FromOSC, State: Idle, Kind: "done"}}, Idle, FromOSC},
		{"explicit report beats title", Inputs{Screen: scrIdle, Report: rep(Idle), Title: title(Working)}, Idle, FromHook},
		{"title when no explicit report", Inputs{Screen: scrIdle, Title: title(Working)}, Working, FromTitle},
		{"idle title never hides a working screen", Inputs{Screen: scrWorking, Title: title(Idle)}, Working, FromScreen},
		{"idle title over an unmatched screen", Inputs{Screen: scrNone, Title: title(Idle)}, Idle, FromTitle},
		{"cleared report falls through", Inputs{Screen: scrWorking, Report: &Signal{Source: FromOSC, Clear: true}}, Working, FromScreen},
		{"report beats shell in front", Inputs{Screen: scrNone, Report: rep(Working), ShellForeground: true}, Working, FromHook},
		{"shell in front beats screen working", Inputs{Screen: scrWorking, ShellForeground: true}, Idle, FromProcess},
		{"remaining screen rules", Inputs{Screen: scrWorking}, Working, FromScreen},
		{"nothing matched", Inputs{Screen: scrNone}, Idle, FromDefault},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Combine(c.in)
			if d.State != c.state || d.Source != c.source {
				t.Fatalf("Combine = %s from %s, want %s from %s", d.State, d.Source, c.state, c.source)
			}
		})
	}
	d := Combine(Inputs{Screen: scrBlocked, Report: &Signal{Source: FromOSC, State: Blocked, Kind: "permission", Message: "Run npm test?"}})
	if d.Message != "Run npm test?" || d.Source != FromScreen {
		t.Errorf("screen-blocked decision should carry the report's summary: %+v", d)
	}
	if d := Combine(Inputs{Screen: scrWorking, ShellForeground: true}); !d.Ended {
		t.Errorf("shell in front should mark the agent ended")
	}
}

func TestParseOSC7501(t *testing.T) {
	msg := base64.StdEncoding.EncodeToString([]byte("Claude needs your permission to use Bash\x1b[31m"))
	cases := []struct {
		payload string
		state   State
		kind    string
		app     string
		message string
		clear   bool
		err     string
	}{
		{payload: "state=working:app=codex", state: Working, app: "codex"},
		{payload: "state=blocked:app=codex:kind=permission", state: Blocked, kind: "permission", app: "codex"},
		{payload: "state=idle:app=codex:kind=done", state: Idle, kind: "done", app: "codex"},
		{payload: "state=working:app=codex:kind=done", state: Idle, kind: "done", app: "codex"},
		{payload: "state=idle:app=codex:kind=clear", kind: "clear", app: "codex", clear: true},
		{payload: "state=done:app=claude-code", state: Idle, kind: "done", app: "claude-code"},
		{payload: "state=clear", kind: "clear", clear: true},
		{payload: "state=error:app=codex", state: Idle, kind: "error", app: "codex"},
		{payload: "state=blocked:app=claude-code:kind=question:msg=" + base64.StdEncoding.EncodeToString([]byte("Which format?")), state: Blocked, kind: "question", app: "claude-code", message: "Which format?"},
		{payload: "state=blocked:app=claude-code:kind=permission:msg=" + msg, state: Blocked, kind: "permission", app: "claude-code", message: "Claude needs your permission to use Bash[31m"},
		{payload: "state=blocked:app=claude-code:msg=!!notbase64", state: Blocked, app: "claude-code"},
		{payload: "state=idle:app=codex:future=1:x", state: Idle, app: "codex"},
		{payload: "state=needs_you:app=x", err: "not idle, working or blocked"},
		{payload: "app=codex", err: "not idle, working or blocked"},
		{payload: "", err: "not idle"},
		{payload: "state=working:msg=" + strings.Repeat("A", 9000), err: "over the"},
	}
	for _, c := range cases {
		s, err := ParseOSC7501(c.payload)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%.40q: err = %v, want %q", c.payload, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%.40q: %v", c.payload, err)
			continue
		}
		if s.State != c.state || s.Kind != c.kind || s.App != c.app || s.Message != c.message || s.Clear != c.clear || s.Source != FromOSC {
			t.Errorf("%.60q = %+v", c.payload, s)
		}
	}
	if _, err := ParseOSC7501("?"); !errors.Is(err, ErrProbe) {
		t.Errorf("probe: %v", err)
	}
	if ProbeQuery != "\x1b]7501;?\x07" || ProbeAnswer != "\x1b]7501;?\x1b\\" {
		t.Error("probe constants changed")
	}
}

func TestHookSignals(t *testing.T) {
	cases := []struct {
		payload string
		state   State
		kind    string
	}{
		{`{"hook_event_name":"Notification","message":"Claude needs your permission to use Bash","notification_type":"permission_prompt"}`, Blocked, "permission"},
		{`{"message":"Claude needs your permission to use Write"}`, Blocked, "permission"},
		{`{"message":"Claude is waiting for your input","notification_type":"idle_prompt"}`, Idle, "idle_prompt"},
		{`{"message":"Claude is waiting for your input"}`, Idle, "notification"},
		// The PermissionRequest hook runs the same helper; its payload has
		// no message or notification_type.
		{`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`, Blocked, "permission"},
	}
	for _, c := range cases {
		s, err := HookNotification([]byte(c.payload))
		if err != nil || s.State != c.state || s.Kind != c.kind {
			t.Errorf("%s = %+v, %v", c.payload, s, err)
		}
	}
	if _, err := HookNotification([]byte("not json")); err == nil {
		t.Error("bad payload accepted")
	}
	if s, _ := HookReport("done"); s.State != Idle {
		t.Errorf("done = %s", s.State)
	}
	if s, _ := HookReport("working"); s.State != Working {
		t.Errorf("working = %s", s.State)
	}
	if _, err := HookReport("blocked"); err == nil {
		t.Error("pane report blocked must be refused: only notify says blocked")
	}
}

func TestGuards(t *testing.T) {
	rs := bundled(t).Get("claude")
	prompt := []string{"Do you want to proceed?", "❯ 1. Yes"}
	working := []string{"✻ Working… (esc to interrupt)"}
	if err := rs.CheckSend(prompt); !errors.Is(err, ErrNeedsDecision) || !strings.Contains(err.Error(), "runtime_answer") {
		t.Errorf("send on a prompt: %v", err)
	}
	if err := rs.CheckSend(working); err != nil {
		t.Errorf("send while working: %v", err)
	}
	if err := rs.CheckAnswer(working); !errors.Is(err, ErrNothingToAnswer) {
		t.Errorf("answer while working: %v", err)
	}
	if err := rs.CheckAnswer(prompt); err != nil {
		t.Errorf("answer on a prompt: %v", err)
	}
}
