package forge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Opener pushes branches and opens requests on their repositories' forges.
type Opener struct {
	// Hosts lists the person's self-hosted forges (nil: only the public ones).
	Hosts  func() []Host
	Tokens TokenSource
	// HTTP is the client the forge APIs are called with (nil: the default).
	HTTP *http.Client
}

// OpenRequest is a branch of the repository in Dir to propose into Base.
type OpenRequest struct {
	Dir    string `json:"dir"`
	Branch string `json:"branch"`
	Base   string `json:"base"`
	Title  string `json:"title"`
	Body   string `json:"body"`
}

// Opened is what Open did.
type Opened struct {
	Repo Repo        `json:"repo"`
	PR   PullRequest `json:"pr"`
	// Existing is true when the branch already had an open request: the
	// push updated it and no second one was opened.
	Existing bool `json:"existing"`
	// TokenFrom says whose login pushed: keychain, gh, glab ("" over SSH
	// with the person's key and the token only for the API).
	TokenFrom string `json:"tokenFrom"`
}

func (o *Opener) hosts() []Host {
	if o.Hosts == nil {
		return nil
	}
	return o.Hosts()
}

// Detect finds the forge and repository branch pushes to.
func (o *Opener) Detect(ctx context.Context, dir, branch string) (Repo, error) {
	name, url, err := remoteOf(ctx, dir, branch)
	if err != nil {
		return Repo{}, err
	}
	return RepoFromRemote(name, url, o.hosts())
}

// Open pushes req.Branch and opens its request into req.Base, in an
// order that leaves nothing half-done:
//  1. the token, its push right and the target branch are checked on the
//     forge before anything is pushed (ErrNoToken, ErrNoPushRight,
//     ErrTargetGone);
//  2. the branch is pushed (never forced; a push git refuses changes
//     nothing);
//  3. an open request from the branch into the base is reused, else one
//     is opened; when opening fails, a branch that was not on the forge
//     before is deleted again, and the error says so (or, when that fails
//     too, that it is still there and how to remove it).
func (o *Opener) Open(ctx context.Context, req OpenRequest) (Opened, error) {
	req.Title, req.Branch, req.Base = strings.TrimSpace(req.Title), strings.TrimSpace(req.Branch), strings.TrimSpace(req.Base)
	switch {
	case req.Branch == "" || req.Base == "":
		return Opened{}, errors.New("choose the branch and the branch to merge it into")
	case req.Branch == req.Base:
		return Opened{}, fmt.Errorf("the branch and its target are both %s: pick the base branch to merge into", req.Branch)
	case req.Title == "":
		return Opened{}, errors.New("the title is empty: write one line that says what the change does")
	}
	if _, err := git(ctx, req.Dir, nil, "rev-parse", "--verify", "--quiet", "refs/heads/"+req.Branch); err != nil {
		return Opened{}, fmt.Errorf("there is no local branch %s in %s", req.Branch, req.Dir)
	}
	repo, err := o.Detect(ctx, req.Dir, req.Branch)
	if err != nil {
		return Opened{}, err
	}
	if o.Tokens == nil {
		return Opened{}, fmt.Errorf("%w for %s", ErrNoToken, repo.Host.Name)
	}
	token, from, err := o.Tokens.Token(ctx, repo.Host)
	if err != nil {
		return Opened{}, err
	}
	c, err := clientFor(repo, token, o.HTTP)
	if err != nil {
		return Opened{}, err
	}
	if err := c.canPush(ctx); err != nil {
		return Opened{}, fmt.Errorf("nothing was pushed: %w", err)
	}
	ok, err := c.branchExists(ctx, req.Base)
	if err != nil {
		return Opened{}, err
	}
	if !ok {
		return Opened{}, fmt.Errorf("nothing was pushed: %w: %s has no branch %s (deleted or renamed?); pick another base", ErrTargetGone, repo.FullName(), req.Base)
	}
	existed, err := remoteHas(ctx, req.Dir, repo, token, req.Branch)
	if err != nil {
		return Opened{}, err
	}
	ref := "refs/heads/" + req.Branch
	if _, err := git(ctx, req.Dir, authEnv(repo, token), "push", "--porcelain", repo.Remote, ref+":"+ref); err != nil {
		return Opened{}, fmt.Errorf("pushing %s to %s (nothing was opened): %w", req.Branch, repo.Host.Name, err)
	}
	out := Opened{Repo: repo, TokenFrom: from}
	if !repo.HTTP {
		out.TokenFrom = ""
	}
	if pr, err := c.findOpen(ctx, req.Branch, req.Base); err != nil {
		return Opened{}, o.undo(ctx, req, repo, token, existed, err)
	} else if pr != nil {
		out.PR, out.Existing = *pr, true
	} else {
		pr, err := c.create(ctx, NewRequest{Head: req.Branch, Base: req.Base, Title: req.Title, Body: req.Body})
		if err != nil {
			return Opened{}, o.undo(ctx, req, repo, token, existed, err)
		}
		out.PR = pr
	}
	// Read it back: the link and state the forge now shows, with checks.
	if pr, err := c.get(ctx, out.PR.Number); err == nil {
		out.PR = pr
	}
	return out, nil
}

// undo deletes a branch Open pushed that was not on the forge before, so
// a failed open leaves no pushed branch behind without saying so.
func (o *Opener) undo(ctx context.Context, req OpenRequest, repo Repo, token string, existed bool, cause error) error {
	what := repo.Host.Kind.Request()
	if existed {
		return fmt.Errorf("%s was pushed (it was on %s before) but the %s could not be opened: %w", req.Branch, repo.Host.Name, what, cause)
	}
	ref := "refs/heads/" + req.Branch
	if _, err := git(context.WithoutCancel(ctx), req.Dir, authEnv(repo, token), "push", "--porcelain", repo.Remote, ":"+ref); err != nil {
		return fmt.Errorf("the %s could not be opened (%w), and %s is still on %s without it: open it again, or delete it with git push %s --delete %s (%v)",
			what, cause, req.Branch, repo.Host.Name, repo.Remote, req.Branch, err)
	}
	return fmt.Errorf("the %s could not be opened, so %s was removed from %s again: %w", what, req.Branch, repo.Host.Name, cause)
}

// Status reads a request's state and checks again.
func (o *Opener) Status(ctx context.Context, repo Repo, number int64) (PullRequest, error) {
	if o.Tokens == nil {
		return PullRequest{}, fmt.Errorf("%w for %s", ErrNoToken, repo.Host.Name)
	}
	token, _, err := o.Tokens.Token(ctx, repo.Host)
	if err != nil {
		return PullRequest{}, err
	}
	c, err := clientFor(repo, token, o.HTTP)
	if err != nil {
		return PullRequest{}, err
	}
	return c.get(ctx, number)
}

// ForgeRepo names the repository page a request from branch in dir would
// be opened on (Connected shows it before the owner approves).
func (o *Opener) ForgeRepo(ctx context.Context, dir, branch string) (string, error) {
	r, err := o.Detect(ctx, dir, branch)
	if err != nil {
		return "", err
	}
	return r.Host.Kind.Label() + " " + r.Web, nil
}

// OpenPullRequest is Open for an approved Connected proposal.
func (o *Opener) OpenPullRequest(ctx context.Context, dir, branch, base, title, body string) (string, int64, error) {
	got, err := o.Open(ctx, OpenRequest{Dir: dir, Branch: branch, Base: base, Title: title, Body: body})
	if err != nil {
		return "", 0, err
	}
	return got.PR.URL, got.PR.Number, nil
}
