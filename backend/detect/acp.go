package detect

import (
	"regexp"
	"sync"
)

// FromACP: the Agent Client Protocol stream between the app's ACP client in
// the pane (`osfoundry acp`) and an ACP agent such as claude-agent-acp.
const FromACP Source = "acp"

// ACPEvent is one protocol step as the app's ACP client in a pane reports
// it. The client speaks JSON-RPC with the adapter; what reaches detection
// is only which message went which way, never its content (except a
// permission's tool title for the card).
type ACPEvent struct {
	// Adapter is the agent program the client runs ("claude-agent-acp"),
	// matched against the [acp] adapter patterns of the rules files.
	Adapter string `json:"adapter"`
	From    string `json:"from"`   // who sent the message: "agent" or "client"
	Type    string `json:"type"`   // "request", "response" or "notification"
	Method  string `json:"method"` // the request's method, also on its response
	// ID pairs a request with its response (the client's own correlation
	// id, unique within one client run).
	ID    string `json:"id,omitempty"`
	Title string `json:"title,omitempty"` // what a permission request is about
}

// ACPRules is a rules file's [acp] section.
type ACPRules struct {
	// Adapter names the agent's ACP adapter program (basename or argv).
	Adapter []*regexp.Regexp
	// Blocked: requests from the agent that wait for the user; the pane
	// needs the user until each one is answered.
	Blocked []*regexp.Regexp
	// Working: requests from the client that start a turn; the agent works
	// until it answers them (then it is idle).
	Working []*regexp.Regexp
}

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// IdentifyACP names the agent whose [acp] adapter patterns match adapter,
// or "".
func (r *Registry) IdentifyACP(adapter string) string {
	if r == nil || adapter == "" {
		return ""
	}
	s := r.snap()
	for _, agent := range s.order {
		if matchAny(s.sets[agent].ACP.Adapter, adapter) {
			return agent
		}
	}
	return ""
}

// ACPStream follows one pane's ACP conversation: which requests are open.
// An open blocked request is a fact, not a guess: the agent cannot go on
// until the user answers it.
type ACPStream struct {
	mu   sync.Mutex
	open map[string]openRequest // requester + ":" + id
	seq  int
}

type openRequest struct {
	state State
	title string
	seq   int
}

// Observe applies one event and returns the pane's resulting signal; ok is
// false when the event does not concern the rules (a method they do not
// name, a response to a request never seen).
func (s *ACPStream) Observe(rules ACPRules, ev ACPEvent) (sig Signal, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil {
		s.open = map[string]openRequest{}
	}
	switch ev.Type {
	case "request":
		if ev.From == "client" && ev.Method == "initialize" {
			// A new connection: whatever the last one left open is gone,
			// and the agent waits for its first task.
			clear(s.open)
			sig := s.signalLocked(sanitize(ev.Adapter, 40))
			sig.Kind = "connected"
			return sig, true
		}
		var st State
		switch {
		case ev.From == "agent" && matchAny(rules.Blocked, ev.Method):
			st = Blocked
		case ev.From == "client" && matchAny(rules.Working, ev.Method):
			st = Working
		default:
			return Signal{}, false
		}
		s.seq++
		s.open[ev.From+":"+ev.ID] = openRequest{state: st, title: ev.Title, seq: s.seq}
	case "response":
		requester := "agent"
		if ev.From == "agent" {
			requester = "client"
		}
		key := requester + ":" + ev.ID
		if _, known := s.open[key]; !known {
			return Signal{}, false
		}
		delete(s.open, key)
	default:
		return Signal{}, false
	}
	return s.signalLocked(sanitize(ev.Adapter, 40)), true
}

// signalLocked: an open blocked request wins (the newest one's title), then
// an open turn is working, else the agent is idle.
func (s *ACPStream) signalLocked(adapter string) Signal {
	var blocked *openRequest
	working := false
	for _, r := range s.open {
		switch r.state {
		case Blocked:
			if blocked == nil || r.seq > blocked.seq {
				rr := r
				blocked = &rr
			}
		case Working:
			working = true
		}
	}
	switch {
	case blocked != nil:
		return Signal{Source: FromACP, State: Blocked, Kind: "permission", App: adapter, Message: sanitize(blocked.title, maxMessage)}
	case working:
		return Signal{Source: FromACP, State: Working, Kind: "turn", App: adapter}
	}
	return Signal{Source: FromACP, State: Idle, Kind: "done", App: adapter}
}
