// Package approvals connects the tool executor's approval queue to the
// window: each request a watched run raises (a tool that needs the user,
// such as typing into a terminal pane) is announced as an event, listed for
// a window that opens later, and answered with Approve or Decline.
package approvals

import (
	"errors"

	"github.com/osfoundry/desktop/backend/tools"
)

// Events this package emits (mirrored in frontend/src/lib/events.ts).
const (
	// EventRequest carries a tools.ApprovalRequest the user must answer.
	EventRequest = "tools:approval"
	// EventDone carries a DoneEvent: the request was answered, cancelled
	// (its run ended) or expired, so the prompt goes away.
	EventDone = "tools:approval-done"
)

// DoneEvent names the request that left the queue.
type DoneEvent struct {
	ID string `json:"id"`
}

// Emitter sends one UI event.
type Emitter interface {
	Emit(event string, payload any)
}

// NewQueue returns the app's approval queue. Every new request and every
// request leaving the queue is emitted, then changed is called (the
// pipeline moves the run to Needs you and back); asked also hears each new
// request (the desktop notification of its chat or run). changed and
// asked may be nil.
func NewQueue(em Emitter, changed func(), asked func(tools.ApprovalRequest)) *tools.ApprovalQueue {
	if changed == nil {
		changed = func() {}
	}
	return tools.NewApprovalQueue(
		func(r tools.ApprovalRequest) {
			if em != nil {
				em.Emit(EventRequest, r)
			}
			changed()
			if asked != nil {
				asked(r)
			}
		},
		func(id string) {
			if em != nil {
				em.Emit(EventDone, DoneEvent{ID: id})
			}
			changed()
		})
}

// Binding is the window's side of the queue.
type Binding struct {
	q *tools.ApprovalQueue
}

// NewBinding binds q.
func NewBinding(q *tools.ApprovalQueue) *Binding { return &Binding{q: q} }

// Pending lists the requests waiting now, oldest first (a window that
// opens or reloads shows them).
func (b *Binding) Pending() []tools.ApprovalRequest { return b.q.Pending() }

// Resolve answers one request: approved runs the tool, anything else
// declines it and the model reads that the user said no.
func (b *Binding) Resolve(id string, approved bool) error {
	d := tools.ApprovalDecision{Approved: approved}
	if !approved {
		d.Reason = "the user declined"
	}
	if err := b.q.Resolve(id, d); err != nil {
		if errors.Is(err, tools.ErrNoSuchApproval) {
			return errors.New("this request is no longer waiting: its run ended or it was already answered")
		}
		return err
	}
	return nil
}
