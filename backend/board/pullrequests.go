package board

// PullRequest is the pull (merge) request opened from the app for a
// card's branch: its link, state and checks as last read from the forge
// (backend/forge keeps them; the board only shows them).
type PullRequest struct {
	URL    string `json:"url"`
	Number int64  `json:"number"`
	Forge  string `json:"forge"` // GitHub, GitLab, Gitea
	// State is open, draft, merged or closed; Checks none, pending,
	// success or failure.
	State  string `json:"state"`
	Checks string `json:"checks"`
}

// PullRequests finds the request opened for a branch of the repository
// or worktree at dir, and tells the board when one changes.
type PullRequests interface {
	PullRequest(dir, branch string) *PullRequest
	Watch(changed func())
}

// SetPullRequests makes cards with a branch show its request.
func (b *Board) SetPullRequests(p PullRequests) {
	b.mu.Lock()
	b.prs = p
	b.mu.Unlock()
	if p != nil {
		p.Watch(b.Changed)
	}
}

// withPullRequests fills the cards' PullRequest from p.
func withPullRequests(cards []Card, p PullRequests) {
	if p == nil {
		return
	}
	for i := range cards {
		if cards[i].Branch != "" {
			cards[i].PullRequest = p.PullRequest(cards[i].Dir, cards[i].Branch)
		}
	}
}
