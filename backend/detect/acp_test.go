package detect

import (
	"strings"
	"testing"
)

func acpEv(from, typ, method, id string) ACPEvent {
	return ACPEvent{Adapter: "claude-agent-acp", From: from, Type: typ, Method: method, ID: id, Title: "touch x"}
}

// The bundled Claude rules declare the ACP signal: the adapter is Claude
// Code, an open session/request_permission is blocked until answered, a
// session/prompt is a turn.
func TestACPStreamFollowsOpenRequests(t *testing.T) {
	reg := bundled(t)
	if a := reg.IdentifyACP("claude-agent-acp"); a != "claude" {
		t.Fatalf("IdentifyACP(claude-agent-acp) = %q, want claude", a)
	}
	if a := reg.IdentifyACP("gemini"); a != "gemini" {
		t.Fatalf("IdentifyACP(gemini) = %q, want gemini (gemini --acp)", a)
	}
	if a := reg.IdentifyACP("codex"); a != "" {
		t.Fatalf("IdentifyACP(codex) = %q, want none (no rules file declares it as an ACP adapter)", a)
	}
	rules := reg.Get("claude").ACP
	steps := []struct {
		name string
		ev   ACPEvent
		want State // "" = no signal
		kind string
	}{
		{"connection opens: waiting for a task", acpEv("client", "request", "initialize", "i1"), Idle, "connected"},
		{"a notification is not a request", acpEv("agent", "notification", "session/update", ""), "", ""},
		{"prompt sent", acpEv("client", "request", "session/prompt", "t2"), Working, "turn"},
		{"permission asked", acpEv("agent", "request", "session/request_permission", "p3"), Blocked, "permission"},
		{"a second one", acpEv("agent", "request", "session/request_permission", "p4"), Blocked, "permission"},
		{"first answered, second still open", acpEv("client", "response", "session/request_permission", "p3"), Blocked, "permission"},
		{"second answered", acpEv("client", "response", "session/request_permission", "p4"), Working, "turn"},
		{"answer to nothing", acpEv("client", "response", "session/request_permission", "p9"), "", ""},
		{"undeclared method", acpEv("agent", "request", "fs/read_text_file", "x"), "", ""},
		{"a client request named like a blocking one", acpEv("client", "request", "session/request_permission", "c1"), "", ""},
		{"turn ends", acpEv("agent", "response", "session/prompt", "t2"), Idle, "done"},
	}
	var s ACPStream
	for _, st := range steps {
		sig, ok := s.Observe(rules, st.ev)
		if st.want == "" {
			if ok {
				t.Errorf("%s: signal %+v, want none", st.name, sig)
			}
			continue
		}
		if !ok || sig.State != st.want || sig.Kind != st.kind || sig.Source != FromACP || sig.App != "claude-agent-acp" {
			t.Errorf("%s: signal %+v (ok %v), want %s/%s from acp", st.name, sig, ok, st.want, st.kind)
		}
		if st.want == Blocked && sig.Message != "touch x" {
			t.Errorf("%s: message %q, want the permission's title", st.name, sig.Message)
		}
	}
	// A new connection forgets what the last one left open.
	s.Observe(rules, acpEv("agent", "request", "session/request_permission", "p1"))
	s.Observe(rules, acpEv("client", "request", "initialize", "i1"))
	if sig, _ := s.Observe(rules, acpEv("client", "request", "session/prompt", "t2")); sig.State != Working {
		t.Errorf("after a new connection: %+v, want working (the old permission is gone)", sig)
	}
}

// ACP reports combine by the existing priority: a prompt on screen still
// wins; otherwise the ACP fact beats the remaining screen rules.
func TestACPReportCombinesByPriority(t *testing.T) {
	acpBlocked := &Signal{Source: FromACP, State: Blocked, Kind: "permission"}
	acpWorking := &Signal{Source: FromACP, State: Working, Kind: "turn"}
	cases := []struct {
		name   string
		in     Inputs
		state  State
		source Source
	}{
		{"acp blocked over an idle screen", Inputs{Screen: Decision{State: Idle, Source: FromDefault}, Report: acpBlocked}, Blocked, FromACP},
		{"acp blocked over a working screen", Inputs{Screen: Decision{State: Working, Source: FromScreen}, Report: acpBlocked}, Blocked, FromACP},
		{"screen blocked over acp working", Inputs{Screen: Decision{State: Blocked, Source: FromScreen}, Report: acpWorking}, Blocked, FromScreen},
		{"shell back: the agent ended", Inputs{Screen: Decision{State: Idle, Source: FromNoAgent}, ShellForeground: true}, Idle, FromProcess},
	}
	for _, c := range cases {
		d := Combine(c.in)
		if d.State != c.state || d.Source != c.source {
			t.Errorf("%s: %s from %s, want %s from %s", c.name, d.State, d.Source, c.state, c.source)
		}
	}
	d := Combine(Inputs{Screen: Decision{State: Idle, Source: FromDefault}, Report: acpBlocked})
	if !strings.HasPrefix(d.String(), "acp report blocked (permission)") {
		t.Errorf("reason %q, want it to name the acp report", d.String())
	}
}

func TestACPRulesValidation(t *testing.T) {
	base := "[[rules]]\nstate = \"idle\"\nany = ['x']\n"
	cases := []struct {
		name, acp, want string
	}{
		{"broken method regex", "[acp]\nadapter = ['^a$']\nblocked = ['session/(']\n", "[acp] blocked: bad regex"},
		{"adapter without signals", "[acp]\nadapter = ['^a$']\n", "no blocked or working methods"},
		{"signals without adapter", "[acp]\nblocked = ['^session/request_permission$']\n", "no adapter"},
		{"unknown signal", "[acp]\nadapter = ['^a$']\nwaiting = ['x']\n", "unknown key acp.waiting"},
		{"a program", "[acp]\nadapter = ['^a$']\ncommand = 'rm -rf /'\n", "never a program"},
	}
	for _, c := range cases {
		_, err := ParseRules("a", "test", []byte(base+c.acp))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
	rs, err := ParseRules("a", "test", []byte(base+"[acp]\nadapter = ['^a$']\nblocked = ['^session/request_permission$']\n"))
	if err != nil || len(rs.ACP.Blocked) != 1 {
		t.Fatalf("valid [acp]: %v %+v", err, rs)
	}
}
