package connect

import (
	"context"
	"time"
)

// ProposalRows holds proposals: the writes an assistant queued for the
// owner under "Needs your approval". The rules — what a proposal may hold,
// the pending limit per connection, pending → approved or declined once,
// a change set applied before it reads approved — live in Service and
// reach their rows only through this interface. The desktop's
// implementation is its SQLite file (sqlite_proposals.go); the team
// server's PostgreSQL one (pgproposals) passes the same suite
// (proposaltest.RunSuite). A getter that finds no row returns an error
// wrapping ErrNotFound. Times are passed in (the Service owns the clock)
// and kept to the millisecond.
type ProposalRows interface {
	// InsertPendingIfUnder stores p as pending unless its connection
	// already has max pending proposals, and reports whether it did. The
	// count and the insert are one step, so concurrent calls of one
	// connection cannot together pass max.
	InsertPendingIfUnder(ctx context.Context, p Proposal, max int) (bool, error)
	// Proposal returns one proposal with its connection's display name
	// ("" once the connection is gone).
	Proposal(ctx context.Context, id string) (Proposal, error)
	// Proposals lists the proposals with status ("" for all), newest
	// first, then by id.
	Proposals(ctx context.Context, status string) ([]Proposal, error)
	// DecideIfPending moves a pending proposal to status (approved or
	// declined), decided by by at at, with outcome when not nil, and
	// reports whether it was still pending.
	DecideIfPending(ctx context.Context, id, status, by string, at time.Time, outcome *Outcome) (bool, error)
	// SetOutcome records why a pending change set could not apply; its
	// status is left as it is.
	SetOutcome(ctx context.Context, id string, outcome Outcome) error
}

// KindChangeSet is the kind of a proposal that carries a change set
// (Changes or Patch), which rows keep beside it.
const KindChangeSet = kindChangeSet

// Proposal states.
const (
	ProposalPending  = "pending"
	ProposalApproved = "approved"
	ProposalDeclined = "declined"
)
