package tools

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// ApprovalRequest is what the user sees in the Approve / Decline prompt.
type ApprovalRequest struct {
	ID        string          `json:"id"`
	Workspace string          `json:"workspace"`
	User      string          `json:"user"`
	Channel   string          `json:"channel"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args" ts_type:"unknown"`
	Source    string          `json:"source"`
	At        int64           `json:"at"` // epoch ms, as every time the window gets
}

// ApprovalDecision is the user's answer.
type ApprovalDecision struct {
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
}

// Approver asks a person to approve one call and blocks until they answer
// or ctx ends (then it returns ctx's error). The app implements it with an
// ApprovalQueue whose notify function emits a UI event.
type Approver interface {
	RequestApproval(ctx context.Context, r ApprovalRequest) (ApprovalDecision, error)
}

// ErrNoSuchApproval is returned by Resolve for an unknown or already
// answered request id.
var ErrNoSuchApproval = errors.New("no pending approval with this id (already answered or expired)")

// ApprovalQueue is the app's Approver: each request is kept pending,
// announced through notify (the UI shows Approve / Decline with the
// arguments) and answered by Resolve.
type ApprovalQueue struct {
	notify func(ApprovalRequest)
	done   func(id string) // announces that a request left the queue

	mu      sync.Mutex
	pending map[string]*pendingApproval
}

type pendingApproval struct {
	req ApprovalRequest
	ch  chan ApprovalDecision
}

var _ Approver = (*ApprovalQueue)(nil)

// NewApprovalQueue returns a queue. notify is called (outside any lock)
// for each new request; done, when non-nil, when one is answered, cancelled
// or expires so the UI can drop the prompt.
func NewApprovalQueue(notify func(ApprovalRequest), done func(id string)) *ApprovalQueue {
	if notify == nil {
		notify = func(ApprovalRequest) {}
	}
	if done == nil {
		done = func(string) {}
	}
	return &ApprovalQueue{notify: notify, done: done, pending: map[string]*pendingApproval{}}
}

// RequestApproval implements Approver.
func (q *ApprovalQueue) RequestApproval(ctx context.Context, r ApprovalRequest) (ApprovalDecision, error) {
	if r.ID == "" {
		r.ID = rand.Text()
	}
	p := &pendingApproval{req: r, ch: make(chan ApprovalDecision, 1)}
	q.mu.Lock()
	q.pending[r.ID] = p
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		delete(q.pending, r.ID)
		q.mu.Unlock()
		q.done(r.ID)
	}()
	q.notify(r)
	select {
	case d := <-p.ch:
		return d, nil
	case <-ctx.Done():
		return ApprovalDecision{}, fmt.Errorf("approval of %s not answered: %w", r.Tool, ctx.Err())
	}
}

// Resolve answers a pending request.
func (q *ApprovalQueue) Resolve(id string, d ApprovalDecision) error {
	q.mu.Lock()
	p, ok := q.pending[id]
	if ok {
		delete(q.pending, id)
	}
	q.mu.Unlock()
	if !ok {
		return fmt.Errorf("answering approval %s: %w", id, ErrNoSuchApproval)
	}
	p.ch <- d // buffered: never blocks
	return nil
}

// Pending lists the requests waiting for an answer, oldest first (the UI
// reads it after a reload).
func (q *ApprovalQueue) Pending() []ApprovalRequest {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]ApprovalRequest, 0, len(q.pending))
	for _, p := range q.pending {
		out = append(out, p.req)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}
