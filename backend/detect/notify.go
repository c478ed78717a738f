package detect

import (
	"sync"
	"time"
)

// NotifyCooldown is the minimum time between two desktop notifications for
// the same session and state: redraws can flicker blocked → working →
// blocked, and one prompt must not ring twice.
const NotifyCooldown = 30 * time.Second

// Notification is what the app shows as an OS notification; clicking it
// focuses Session's pane.
type Notification struct {
	Session string
	State   State
	Title   string
	Body    string
	At      time.Time
}

// Notifier decides when a state change deserves a desktop notification.
type Notifier struct {
	clock    Clock
	cooldown time.Duration
	states   map[State]bool
	send     func(Notification)
	// names turns an agent id into the name the user knows (the rules'
	// display names); nil leaves ids as they are.
	names func(agent string) string

	mu   sync.Mutex
	last map[notifyKey]time.Time
}

type notifyKey struct {
	session string
	state   State
}

// NewNotifier notifies through send when a session starts needing the user
// (blocked), at most once per NotifyCooldown per session and state. Pass
// more states to also notify on them (e.g. Idle for "turn finished").
func NewNotifier(clock Clock, send func(Notification), states ...State) *Notifier {
	if clock == nil {
		clock = RealClock()
	}
	if len(states) == 0 {
		states = []State{Blocked}
	}
	n := &Notifier{clock: clock, cooldown: NotifyCooldown, states: map[State]bool{}, send: send, last: map[notifyKey]time.Time{}}
	for _, s := range states {
		n.states[s] = true
	}
	return n
}

// Observe is fed every Update of a session (label is what the user calls
// it, e.g. the pane's folder "shop-api"). It reports whether it notified.
func (n *Notifier) Observe(session, label string, u Update) bool {
	next := u.Decision.State
	if next == u.Prev.State || !n.states[next] {
		return false
	}
	now := n.clock.Now()
	k := notifyKey{session, next}
	n.mu.Lock()
	if last, ok := n.last[k]; ok && now.Sub(last) < n.cooldown {
		n.mu.Unlock()
		return false
	}
	n.last[k] = now
	n.mu.Unlock()
	if n.send != nil {
		n.send(notificationFor(session, label, u.Decision, now, n.names))
	}
	return true
}

// Forget drops a closed session's cooldowns.
func (n *Notifier) Forget(session string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for k := range n.last {
		if k.session == session {
			delete(n.last, k)
		}
	}
}

// notificationFor words a notification; names turns an agent id into the
// name the user knows (nil: the id as is).
func notificationFor(session, label string, d Decision, at time.Time, names func(string) string) Notification {
	who := d.Agent
	if names != nil && who != "" {
		who = names(who)
	}
	if who == "" {
		who = "The agent"
	}
	nt := Notification{Session: session, State: d.State, At: at}
	switch d.State {
	case Blocked:
		nt.Title = "Needs you · " + label
		nt.Body = who + " is waiting for your decision."
		if d.Message != "" {
			nt.Body = d.Message
		}
	case Idle:
		nt.Title = "Idle · " + label
		nt.Body = who + " finished and waits for its next task."
	default:
		nt.Title = "Working · " + label
		nt.Body = who + " is working."
	}
	return nt
}
