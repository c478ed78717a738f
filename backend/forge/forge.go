package forge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// PullRequest is a pull (merge) request as the forge reports it.
type PullRequest struct {
	Kind   Kind   `json:"kind"`
	Number int64  `json:"number"`
	URL    string `json:"url"`
	// State is open, draft, merged or closed.
	State  string `json:"state"`
	Title  string `json:"title"`
	Head   string `json:"head"`
	Base   string `json:"base"`
	SHA    string `json:"sha"` // the head commit the checks ran on
	Checks Checks `json:"checks"`
}

// Checks sums up the CI checks and commit statuses on the head commit.
type Checks struct {
	// State is none (no checks), pending, success or failure.
	State   string `json:"state"`
	Total   int    `json:"total"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Pending int    `json:"pending"`
}

// add counts one check whose outcome is success, failure or pending.
func (c *Checks) add(outcome string) {
	c.Total++
	switch outcome {
	case "success":
		c.Passed++
	case "failure":
		c.Failed++
	default:
		c.Pending++
	}
	switch {
	case c.Failed > 0:
		c.State = "failure"
	case c.Pending > 0:
		c.State = "pending"
	default:
		c.State = "success"
	}
}

// NewRequest is what opening a request sends.
type NewRequest struct {
	Head, Base, Title, Body string
}

// Errors callers branch on; the wrapped text says what to do.
var (
	// ErrNoPushRight: the token may read the repository but not push to it.
	ErrNoPushRight = errors.New("the token cannot push to this repository")
	// ErrTargetGone: the branch the request would merge into is not on the forge.
	ErrTargetGone = errors.New("the target branch is not on the forge")
	// ErrBadToken: the forge refused the token (expired, revoked, mistyped).
	ErrBadToken = errors.New("the forge refused the token")
	// ErrNoToken: no token from the forge's CLI or the keychain.
	ErrNoToken = errors.New("no token")
)

// api is one forge's client, bound to one repository and token.
type api interface {
	// canPush returns ErrNoPushRight (wrapped) when the token may not push.
	canPush(ctx context.Context) error
	branchExists(ctx context.Context, branch string) (bool, error)
	// findOpen returns the open request from head into base, or nil.
	findOpen(ctx context.Context, head, base string) (*PullRequest, error)
	create(ctx context.Context, r NewRequest) (PullRequest, error)
	// get reads a request with its checks.
	get(ctx context.Context, number int64) (PullRequest, error)
}

// clientFor builds the forge's client for r.
func clientFor(r Repo, token string, hc *http.Client) (api, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	switch r.Host.Kind {
	case GitHub:
		return newGitHub(r, token, hc)
	case GitLab:
		return newGitLab(r, token, hc)
	case Gitea:
		return newGitea(r, token, hc), nil
	}
	return nil, fmt.Errorf("%w: %q is not GitHub, GitLab or Gitea", ErrUnknownForge, r.Host.Kind)
}

// statusError turns an HTTP status from a forge into the sentinel a
// person can act on, or nil when the status says nothing special.
func statusError(r Repo, code int) error {
	switch code {
	case http.StatusUnauthorized:
		return fmt.Errorf("%w: %s answered 401; sign in again (%s) or paste a new token", ErrBadToken, r.Host.Name, cliHint(r.Host.Kind))
	case http.StatusForbidden:
		return fmt.Errorf("%w: %s answered 403 for %s; use a token with write access to it", ErrNoPushRight, r.Host.Name, r.FullName())
	}
	return nil
}

func cliHint(k Kind) string {
	switch k {
	case GitHub:
		return "gh auth login"
	case GitLab:
		return "glab auth login"
	}
	return "create a token under Settings → Applications on the forge"
}
