package connect

import (
	"context"
	"fmt"
	"time"
)

// Activity is one line of "Recent activity": tool, access decision, time.
type Activity struct {
	ConnectionID string    `json:"connectionId"`
	Tool         string    `json:"tool"`
	Decision     string    `json:"decision"`
	Detail       string    `json:"detail"`
	At           time.Time `json:"at" ts_type:"string"`
}

func (s *Service) logActivity(ctx context.Context, connID, tool, decision, detail string) error {
	return s.st.InsertActivity(ctx, Activity{ConnectionID: connID, Tool: tool, Decision: decision, Detail: detail,
		At: time.UnixMilli(s.ms()).UTC()})
}

// RecentActivity lists the newest calls of a connection ("" for all), at
// most limit (default 50).
func (s *Service) RecentActivity(ctx context.Context, connID string, limit int) ([]Activity, error) {
	if limit <= 0 {
		limit = 50
	}
	return s.st.RecentActivity(ctx, connID, limit)
}

// Proposal is a write that waits under "Needs your approval".
type Proposal struct {
	ID           string    `json:"id"`
	ConnectionID string    `json:"connectionId"`
	Connection   string    `json:"connection"` // display name
	Kind         string    `json:"kind"`
	Project      string    `json:"project"`
	Target       string    `json:"target"`
	Title        string    `json:"title"`
	Files        []string  `json:"files"`
	Details      string    `json:"details"`
	Status       string    `json:"status"`
	CreatedAt    time.Time `json:"createdAt" ts_type:"string"`
	DecidedAt    time.Time `json:"decidedAt" ts_type:"string"`
	DecidedBy    string    `json:"decidedBy"`
	// A change set (kind change_set): its files or patch, then what
	// approving it did (Branch, Commit, Diff) or why it could not (Problem).
	// A pull request (kind pull_request) keeps its diff in Patch too.
	Changes []FileChange `json:"changes"`
	Patch   string       `json:"patch"`
	// Request is a pull_request proposal's branch, base and text.
	Request *PullRequestAsk `json:"request,omitempty"`
	// Import is a file_import proposal's destination and files (the
	// files are also in Changes, beside what the destination holds now).
	Import *FileImportAsk `json:"import,omitempty"`
	Outcome
}

func (s *Service) addProposal(ctx context.Context, p Proposal) (Proposal, error) {
	p.ID = newID("prop")
	p.Status = ProposalPending
	p.CreatedAt = time.UnixMilli(s.ms()).UTC()
	if p.Files == nil {
		p.Files = []string{}
	}
	if p.Changes == nil {
		p.Changes = []FileChange{}
	}
	ok, err := s.proposals.InsertPendingIfUnder(ctx, p, MaxPendingProposals)
	if err != nil {
		return Proposal{}, fmt.Errorf("queueing proposal: %w", err)
	}
	if !ok {
		return Proposal{}, fmt.Errorf("queueing proposal of connection %s: %w", p.ConnectionID, ErrTooManyPending)
	}
	return p, nil
}

// Proposals lists proposals with the given status ("" for all), newest first.
func (s *Service) Proposals(ctx context.Context, status string) ([]Proposal, error) {
	ps, err := s.proposals.Proposals(ctx, status)
	if err != nil {
		return nil, fmt.Errorf("listing proposals: %w", err)
	}
	return ps, nil
}

// Proposal returns one proposal; ErrNotFound when there is none.
func (s *Service) Proposal(ctx context.Context, id string) (Proposal, error) {
	return s.proposals.Proposal(ctx, id)
}

// Decide approves or declines a pending proposal on behalf of user.
// Approving a change set, pull request or file import carries it out
// first (applyChangeSet, applyPullRequest, applyFileImport); one that
// cannot be carried out stays pending with its Problem. A decided proposal is never
// decided again: ErrNotPending.
func (s *Service) Decide(ctx context.Context, id, user string, approve bool) (Proposal, error) {
	if approve {
		p, err := s.Proposal(ctx, id)
		if err != nil {
			return Proposal{}, err
		}
		switch p.Kind {
		case kindChangeSet:
			return s.applyChangeSet(ctx, id, user)
		case KindPullRequest:
			return s.applyPullRequest(ctx, id, user)
		case KindFileImport:
			return s.applyFileImport(ctx, id, user)
		}
	}
	status := ProposalDeclined
	if approve {
		status = ProposalApproved
	}
	ok, err := s.proposals.DecideIfPending(ctx, id, status, user, time.UnixMilli(s.ms()), nil)
	if err != nil {
		return Proposal{}, fmt.Errorf("deciding proposal: %w", err)
	}
	if !ok {
		if _, err := s.Proposal(ctx, id); err != nil {
			return Proposal{}, err
		}
		return Proposal{}, fmt.Errorf("deciding proposal %q: %w", id, ErrNotPending)
	}
	return s.Proposal(ctx, id)
}
