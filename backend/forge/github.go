package forge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v89/github"
)

// gitHub is GitHub.com or GitHub Enterprise through go-github.
type gitHub struct {
	r Repo
	c *github.Client
}

func newGitHub(r Repo, token string, hc *http.Client) (*gitHub, error) {
	opts := []github.ClientOptionsFunc{github.WithHTTPClient(hc), github.WithAuthToken(token)}
	if r.Host.Name != "github.com" || r.Host.API != knownHosts["github.com"].API {
		api := r.Host.API
		if !strings.HasSuffix(api, "/") {
			api += "/"
		}
		opts = append(opts, github.WithURLs(&api, &api))
	}
	c, err := github.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("setting up the GitHub client for %s: %w", r.Host.Name, err)
	}
	return &gitHub{r: r, c: c}, nil
}

func (g *gitHub) err(doing string, resp *github.Response, err error) error {
	if resp != nil {
		if e := statusError(g.r, resp.StatusCode); e != nil {
			return fmt.Errorf("%s: %w", doing, e)
		}
	}
	return fmt.Errorf("%s on %s: %w", doing, g.r.Host.Name, err)
}

func (g *gitHub) canPush(ctx context.Context) error {
	repo, resp, err := g.c.Repositories.Get(ctx, g.r.Owner, g.r.Name)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return fmt.Errorf("%w: %s is not visible to this token; use a token with access to it", ErrNoPushRight, g.r.FullName())
		}
		return g.err("reading "+g.r.FullName(), resp, err)
	}
	if p := repo.GetPermissions(); p == nil || !p.GetPush() {
		return fmt.Errorf("%w: the token may read %s but not push to it; use a token with write access (Contents: read and write)", ErrNoPushRight, g.r.FullName())
	}
	return nil
}

func (g *gitHub) branchExists(ctx context.Context, branch string) (bool, error) {
	_, resp, err := g.c.Repositories.GetBranch(ctx, g.r.Owner, g.r.Name, branch, 1)
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return false, nil
	}
	if err != nil {
		return false, g.err("reading branch "+branch, resp, err)
	}
	return true, nil
}

func (g *gitHub) findOpen(ctx context.Context, head, base string) (*PullRequest, error) {
	prs, resp, err := g.c.PullRequests.List(ctx, g.r.Owner, g.r.Name, &github.PullRequestListOptions{
		State: "open", Head: g.r.Owner + ":" + head, Base: base})
	if err != nil {
		return nil, g.err("listing pull requests", resp, err)
	}
	if len(prs) == 0 {
		return nil, nil
	}
	p := g.from(prs[0])
	return &p, nil
}

func (g *gitHub) create(ctx context.Context, n NewRequest) (PullRequest, error) {
	pr, resp, err := g.c.PullRequests.Create(ctx, g.r.Owner, g.r.Name, &github.NewPullRequest{
		Title: &n.Title, Head: &n.Head, Base: &n.Base, Body: &n.Body})
	if err != nil {
		return PullRequest{}, g.err("opening the pull request", resp, err)
	}
	return g.from(pr), nil
}

func (g *gitHub) get(ctx context.Context, number int64) (PullRequest, error) {
	pr, resp, err := g.c.PullRequests.Get(ctx, g.r.Owner, g.r.Name, int(number))
	if err != nil {
		return PullRequest{}, g.err(fmt.Sprintf("reading pull request #%d", number), resp, err)
	}
	p := g.from(pr)
	if p.SHA == "" {
		return p, nil
	}
	// Checks: the check runs (Actions, apps) and the older commit statuses.
	runs, resp, err := g.c.Checks.ListCheckRunsForRef(ctx, g.r.Owner, g.r.Name, p.SHA, &github.ListCheckRunsOptions{
		ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil && !errors.Is(err, context.Canceled) && (resp == nil || resp.StatusCode != http.StatusForbidden) {
		return PullRequest{}, g.err("reading the checks", resp, err)
	}
	if runs != nil {
		for _, cr := range runs.CheckRuns {
			switch {
			case cr.GetStatus() != "completed":
				p.Checks.add("pending")
			case cr.GetConclusion() == "success" || cr.GetConclusion() == "neutral" || cr.GetConclusion() == "skipped":
				p.Checks.add("success")
			default:
				p.Checks.add("failure")
			}
		}
	}
	st, resp, err := g.c.Repositories.GetCombinedStatus(ctx, g.r.Owner, g.r.Name, p.SHA, nil)
	if err != nil {
		return PullRequest{}, g.err("reading the commit statuses", resp, err)
	}
	for _, s := range st.Statuses {
		switch s.GetState() {
		case "success":
			p.Checks.add("success")
		case "pending":
			p.Checks.add("pending")
		default:
			p.Checks.add("failure")
		}
	}
	return p, nil
}

func (g *gitHub) from(pr *github.PullRequest) PullRequest {
	state := pr.GetState()
	switch {
	case pr.GetMerged() || pr.MergedAt != nil:
		state = "merged"
	case state == "open" && pr.GetDraft():
		state = "draft"
	}
	return PullRequest{Kind: GitHub, Number: int64(pr.GetNumber()), URL: pr.GetHTMLURL(), State: state, Title: pr.GetTitle(),
		Head: pr.GetHead().GetRef(), Base: pr.GetBase().GetRef(), SHA: pr.GetHead().GetSHA(), Checks: Checks{State: "none"}}
}
