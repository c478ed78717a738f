package forge

import (
	"context"
	"fmt"
	"net/http"

	"code.gitea.io/sdk/gitea"
)

// giteaForge is Gitea or Forgejo (the same API) through Gitea's SDK.
type giteaForge struct {
	r     Repo
	token string
	hc    *http.Client
}

func newGitea(r Repo, token string, hc *http.Client) *giteaForge {
	return &giteaForge{r: r, token: token, hc: hc}
}

// client is a client for one call: the SDK keeps its context on the
// client, so calls never share one. The version probe is skipped (every
// call here exists since Gitea 1.17 and in every Forgejo).
func (g *giteaForge) client(ctx context.Context) (*gitea.Client, error) {
	c, err := gitea.NewClient(g.r.Host.API, gitea.SetHTTPClient(g.hc), gitea.SetToken(g.token),
		gitea.SetContext(ctx), gitea.SetGiteaVersion(""))
	if err != nil {
		return nil, fmt.Errorf("setting up the Gitea client for %s: %w", g.r.Host.Name, err)
	}
	return c, nil
}

func (g *giteaForge) err(doing string, resp *gitea.Response, err error) error {
	if resp != nil && resp.Response != nil {
		if e := statusError(g.r, resp.StatusCode); e != nil {
			return fmt.Errorf("%s: %w", doing, e)
		}
	}
	return fmt.Errorf("%s on %s: %w", doing, g.r.Host.Name, err)
}

func status(resp *gitea.Response) int {
	if resp == nil || resp.Response == nil {
		return 0
	}
	return resp.StatusCode
}

func (g *giteaForge) canPush(ctx context.Context) error {
	c, err := g.client(ctx)
	if err != nil {
		return err
	}
	repo, resp, err := c.GetRepo(g.r.Owner, g.r.Name)
	if err != nil {
		if status(resp) == http.StatusNotFound {
			return fmt.Errorf("%w: %s is not visible to this token; use a token with access to it", ErrNoPushRight, g.r.FullName())
		}
		return g.err("reading "+g.r.FullName(), resp, err)
	}
	if repo.Permissions == nil || !repo.Permissions.Push {
		return fmt.Errorf("%w: the token's user may read %s but not push to it; ask its owner to add you as a collaborator with write access, or use another token", ErrNoPushRight, g.r.FullName())
	}
	return nil
}

func (g *giteaForge) branchExists(ctx context.Context, branch string) (bool, error) {
	c, err := g.client(ctx)
	if err != nil {
		return false, err
	}
	_, resp, err := c.GetRepoBranch(g.r.Owner, g.r.Name, branch)
	if status(resp) == http.StatusNotFound {
		return false, nil
	}
	if err != nil {
		return false, g.err("reading branch "+branch, resp, err)
	}
	return true, nil
}

func (g *giteaForge) findOpen(ctx context.Context, head, base string) (*PullRequest, error) {
	c, err := g.client(ctx)
	if err != nil {
		return nil, err
	}
	pr, resp, err := c.GetPullRequestByBaseHead(g.r.Owner, g.r.Name, base, head)
	if status(resp) == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, g.err("looking for an open pull request", resp, err)
	}
	if pr.State != gitea.StateOpen || pr.HasMerged {
		return nil, nil
	}
	p := g.from(pr)
	return &p, nil
}

func (g *giteaForge) create(ctx context.Context, n NewRequest) (PullRequest, error) {
	c, err := g.client(ctx)
	if err != nil {
		return PullRequest{}, err
	}
	pr, resp, err := c.CreatePullRequest(g.r.Owner, g.r.Name, gitea.CreatePullRequestOption{
		Head: n.Head, Base: n.Base, Title: n.Title, Body: n.Body})
	if status(resp) == http.StatusNotFound {
		return PullRequest{}, fmt.Errorf("%s takes no pull requests (they are turned off in its settings on %s): turn them on, or push the branch and propose it another way", g.r.FullName(), g.r.Host.Name)
	}
	if err != nil {
		return PullRequest{}, g.err("opening the pull request", resp, err)
	}
	return g.from(pr), nil
}

func (g *giteaForge) get(ctx context.Context, number int64) (PullRequest, error) {
	c, err := g.client(ctx)
	if err != nil {
		return PullRequest{}, err
	}
	pr, resp, err := c.GetPullRequest(g.r.Owner, g.r.Name, number)
	if err != nil {
		return PullRequest{}, g.err(fmt.Sprintf("reading pull request #%d", number), resp, err)
	}
	p := g.from(pr)
	if p.SHA == "" {
		return p, nil
	}
	st, resp, err := c.GetCombinedStatus(g.r.Owner, g.r.Name, p.SHA)
	if err != nil && status(resp) != http.StatusNotFound {
		return PullRequest{}, g.err("reading the commit statuses", resp, err)
	}
	if st != nil {
		for _, s := range st.Statuses {
			switch s.State {
			case gitea.StatusSuccess, gitea.StatusWarning:
				p.Checks.add("success")
			case gitea.StatusPending:
				p.Checks.add("pending")
			default:
				p.Checks.add("failure")
			}
		}
	}
	return p, nil
}

func (g *giteaForge) from(pr *gitea.PullRequest) PullRequest {
	state := string(pr.State)
	switch {
	case pr.HasMerged:
		state = "merged"
	case pr.State == gitea.StateOpen && pr.Draft:
		state = "draft"
	}
	p := PullRequest{Kind: Gitea, Number: pr.Index, URL: pr.HTMLURL, State: state, Title: pr.Title, Checks: Checks{State: "none"}}
	if pr.Head != nil {
		p.Head, p.SHA = pr.Head.Ref, pr.Head.Sha
	}
	if pr.Base != nil {
		p.Base = pr.Base.Ref
	}
	return p
}
