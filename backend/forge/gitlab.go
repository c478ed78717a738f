package forge

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// gitLab is GitLab.com or a self-managed GitLab through its client-go.
type gitLab struct {
	r   Repo
	c   *gitlab.Client
	pid string // the project's path, which the API takes in place of its id
}

func newGitLab(r Repo, token string, hc *http.Client) (*gitLab, error) {
	c, err := gitlab.NewClient(token, gitlab.WithBaseURL(r.Host.API), gitlab.WithHTTPClient(hc), gitlab.WithCustomRetryMax(1))
	if err != nil {
		return nil, fmt.Errorf("setting up the GitLab client for %s: %w", r.Host.Name, err)
	}
	return &gitLab{r: r, c: c, pid: r.Owner + "/" + r.Name}, nil
}

func (g *gitLab) err(doing string, resp *gitlab.Response, err error) error {
	if resp != nil {
		if e := statusError(g.r, resp.StatusCode); e != nil {
			return fmt.Errorf("%s: %w", doing, e)
		}
	}
	var er *gitlab.ErrorResponse
	if errors.As(err, &er) && er.Message != "" {
		return fmt.Errorf("%s on %s: %s", doing, g.r.Host.Name, er.Message)
	}
	return fmt.Errorf("%s on %s: %w", doing, g.r.Host.Name, err)
}

func (g *gitLab) canPush(ctx context.Context) error {
	p, resp, err := g.c.Projects.GetProject(g.pid, nil, gitlab.WithContext(ctx))
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return fmt.Errorf("%w: %s is not visible to this token; use a token with access to it", ErrNoPushRight, g.r.FullName())
		}
		return g.err("reading "+g.r.FullName(), resp, err)
	}
	level := gitlab.AccessLevelValue(0)
	if p.Permissions != nil {
		if p.Permissions.ProjectAccess != nil {
			level = max(level, p.Permissions.ProjectAccess.AccessLevel)
		}
		if p.Permissions.GroupAccess != nil {
			level = max(level, p.Permissions.GroupAccess.AccessLevel)
		}
	}
	if level < gitlab.DeveloperPermissions {
		return fmt.Errorf("%w: the token's role on %s is below Developer, which pushing branches needs; ask a maintainer for Developer access or use another token", ErrNoPushRight, g.r.FullName())
	}
	return nil
}

func (g *gitLab) branchExists(ctx context.Context, branch string) (bool, error) {
	_, resp, err := g.c.Branches.GetBranch(g.pid, branch, gitlab.WithContext(ctx))
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return false, nil
	}
	if err != nil {
		return false, g.err("reading branch "+branch, resp, err)
	}
	return true, nil
}

func (g *gitLab) findOpen(ctx context.Context, head, base string) (*PullRequest, error) {
	mrs, resp, err := g.c.MergeRequests.ListProjectMergeRequests(g.pid, &gitlab.ListProjectMergeRequestsOptions{
		State: gitlab.Ptr("opened"), SourceBranch: &head, TargetBranch: &base}, gitlab.WithContext(ctx))
	if err != nil {
		return nil, g.err("listing merge requests", resp, err)
	}
	if len(mrs) == 0 {
		return nil, nil
	}
	p := PullRequest{Kind: GitLab, Number: mrs[0].IID, URL: mrs[0].WebURL, State: glState(mrs[0].State, mrs[0].Draft),
		Title: mrs[0].Title, Head: mrs[0].SourceBranch, Base: mrs[0].TargetBranch, SHA: mrs[0].SHA, Checks: Checks{State: "none"}}
	return &p, nil
}

func (g *gitLab) create(ctx context.Context, n NewRequest) (PullRequest, error) {
	mr, resp, err := g.c.MergeRequests.CreateMergeRequest(g.pid, &gitlab.CreateMergeRequestOptions{
		Title: &n.Title, Description: &n.Body, SourceBranch: &n.Head, TargetBranch: &n.Base}, gitlab.WithContext(ctx))
	if err != nil {
		return PullRequest{}, g.err("opening the merge request", resp, err)
	}
	return g.from(mr), nil
}

func (g *gitLab) get(ctx context.Context, number int64) (PullRequest, error) {
	mr, resp, err := g.c.MergeRequests.GetMergeRequest(g.pid, number, nil, gitlab.WithContext(ctx))
	if err != nil {
		return PullRequest{}, g.err(fmt.Sprintf("reading merge request !%d", number), resp, err)
	}
	return g.from(mr), nil
}

// from reads a merge request; its checks are its head pipeline's status.
func (g *gitLab) from(mr *gitlab.MergeRequest) PullRequest {
	p := PullRequest{Kind: GitLab, Number: mr.IID, URL: mr.WebURL, State: glState(mr.State, mr.Draft), Title: mr.Title,
		Head: mr.SourceBranch, Base: mr.TargetBranch, SHA: mr.SHA, Checks: Checks{State: "none"}}
	if pl := mr.HeadPipeline; pl != nil {
		switch pl.Status {
		case "success", "skipped", "manual":
			p.Checks.add("success")
		case "failed", "canceled":
			p.Checks.add("failure")
		default: // created, waiting_for_resource, preparing, pending, running, scheduled
			p.Checks.add("pending")
		}
	}
	return p
}

func glState(state string, draft bool) string {
	switch state {
	case "opened":
		if draft {
			return "draft"
		}
		return "open"
	case "locked":
		return "open"
	}
	return state // merged, closed
}
