package connect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/tools"
)

// KindPullRequest is the kind propose_pull_request queues: a branch of the
// project's repository to push and propose into a base branch on the
// repository's forge, opened when the owner approves.
const KindPullRequest = "pull_request"

// PullRequests opens pull requests on a repository's forge with the
// owner's own login (backend/forge; the window passes its Opener). The
// assistant never sees a token.
type PullRequests interface {
	// ForgeRepo names where a request from branch in the repository at
	// dir would go (the repository's page on its forge), or says why it
	// cannot (no remote, a host that is not a known forge).
	ForgeRepo(ctx context.Context, dir, branch string) (string, error)
	// OpenPullRequest pushes branch and opens its request into base,
	// leaving nothing pushed when it fails; it returns the request's link.
	OpenPullRequest(ctx context.Context, dir, branch, base, title, body string) (url string, number int64, err error)
}

// PullRequestAsk is what a pull_request proposal asks for: Branch of the
// repository, proposed into Base, with Body as the request's text; Forge
// is the repository's page on its forge, shown to the owner.
type PullRequestAsk struct {
	Branch string `json:"branch"`
	Base   string `json:"base"`
	Body   string `json:"body"`
	Forge  string `json:"forge"`
}

const pullRequestSchema = `{"type":"object","properties":{
"project_id":{"type":"string","maxLength":200,"description":"Project the request belongs to (from list_granted_resources); its git repository holds the branch."},
"branch":{"type":"string","maxLength":250,"description":"The branch of the project's repository to propose, already committed (e.g. from an approved propose_change_set: osfoundry/proposal-<id>)."},
"base":{"type":"string","maxLength":250,"description":"The branch to merge into; omit for the repository's default branch."},
"title":{"type":"string","maxLength":200,"description":"The pull request's title; also what the owner reads under Needs your approval."},
"body":{"type":"string","maxLength":8000,"description":"The pull request's description."}},
"required":["project_id","branch","title"],"additionalProperties":false}`

func (s *Service) pullRequestTool() *entry {
	return &entry{Tool: tools.Tool{Meta: tools.Meta{Name: "propose_pull_request", Scope: tools.ScopeWrite,
		Description: "Propose opening a pull request (a merge request on GitLab) for a branch of the project's git repository on its forge (GitHub, GitLab, Gitea/Forgejo). The owner sees the diff and the target first; nothing is pushed until they approve, then the branch is pushed with the owner's login and the request opened. get_proposal_status returns its link, or why it could not be opened.",
		InputSchema: json.RawMessage(pullRequestSchema)}},
		builtin: s.proposePullRequest, target: projectTarget(true)}
}

// maxPullRequestDiff bounds the diff kept for the owner to read; a larger
// one is cut with a note (the forge shows it whole).
const maxPullRequestDiff = 1 << 20

func (s *Service) proposePullRequest(ctx context.Context, a *allowed, args json.RawMessage) (tools.Result, error) {
	var in struct {
		ProjectID string `json:"project_id"`
		Branch    string `json:"branch"`
		Base      string `json:"base"`
		Title     string `json:"title"`
		Body      string `json:"body"`
	}
	if err := decodeStrict(args, &in, "propose_pull_request", "project_id", "branch", "base", "title", "body"); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	in.Branch, in.Base, in.Title = strings.TrimSpace(in.Branch), strings.TrimSpace(in.Base), strings.TrimSpace(in.Title)
	if in.Branch == "" || in.Title == "" {
		return tools.ErrorResult("branch and title are required"), nil
	}
	if why := proposalFieldProblem(in.ProjectID, in.Title, "", "", nil); why != "" {
		return tools.ErrorResult(why), nil
	}
	for _, f := range []struct {
		name, v string
		max     int
	}{{"branch", in.Branch, 250}, {"base", in.Base, 250}, {"body", in.Body, maxProposalDetails}} {
		if n := utf8.RuneCountInString(f.v); n > f.max {
			return tools.ErrorResult(fmt.Sprintf("%s may be at most %d characters; this one has %d: shorten it", f.name, f.max, n)), nil
		}
		if !storable(f.v) {
			return tools.ErrorResult(f.name + " must be UTF-8 text without NUL characters: remove them"), nil
		}
	}
	dir, refusal, err := s.projectRepo(ctx, in.ProjectID)
	if err != nil {
		return tools.Result{}, err
	}
	if refusal != "" {
		return tools.ErrorResult(refusal), nil
	}
	if s.prs == nil {
		return tools.ErrorResult("this osFoundry cannot open pull requests (no forge is set up here)"), nil
	}
	if !refOK(ctx, dir, "refs/heads/"+in.Branch) {
		return tools.ErrorResult(fmt.Sprintf("the project's repository has no branch %q: commit the work on a branch first (propose_change_set makes one when approved)", in.Branch)), nil
	}
	if in.Base == "" {
		in.Base = defaultBase(ctx, dir)
	}
	baseRef := "refs/heads/" + in.Base
	if !refOK(ctx, dir, baseRef) {
		baseRef = "refs/remotes/origin/" + in.Base
		if !refOK(ctx, dir, baseRef) {
			return tools.ErrorResult(fmt.Sprintf("the project's repository has no branch %q to merge into: name an existing base", in.Base)), nil
		}
	}
	forgeRepo, err := s.prs.ForgeRepo(ctx, dir, in.Branch)
	if err != nil {
		return tools.ErrorResult("cannot open a pull request from this repository: " + err.Error()), nil
	}
	diff, err := gitOut(ctx, dir, "diff", "--no-color", "--no-ext-diff", baseRef+"..."+"refs/heads/"+in.Branch, "--")
	if err != nil {
		return tools.Result{}, fmt.Errorf("reading the diff of %s against %s: %w", in.Branch, in.Base, err)
	}
	if strings.TrimSpace(diff) == "" {
		return tools.ErrorResult(fmt.Sprintf("%s has no changes that %s does not have: there is nothing to propose", in.Branch, in.Base)), nil
	}
	if len(diff) > maxPullRequestDiff {
		diff = diff[:maxPullRequestDiff] + "\n… (cut here; the forge shows the whole diff)\n"
	}
	names, err := gitOut(ctx, dir, "diff", "--name-only", baseRef+"..."+"refs/heads/"+in.Branch, "--")
	if err != nil {
		return tools.Result{}, fmt.Errorf("listing the files of %s: %w", in.Branch, err)
	}
	files := strings.Fields(names)
	if len(files) > 200 {
		files = append(files[:200], fmt.Sprintf("… and %d more", len(files)-200))
	}
	p, err := s.addProposal(ctx, Proposal{ConnectionID: a.grant.ConnectionID, Kind: KindPullRequest, Project: in.ProjectID,
		Target: dir, Title: in.Title, Files: files, Patch: diff,
		Request: &PullRequestAsk{Branch: in.Branch, Base: in.Base, Body: in.Body, Forge: forgeRepo}})
	if errors.Is(err, ErrTooManyPending) {
		return tools.ErrorResult(pendingRefusal), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	return tools.JSONResult(map[string]any{"proposal_id": p.ID, "status": p.Status, "branch": in.Branch, "base": in.Base, "forge": forgeRepo,
		"note": "Waiting under Needs your approval with its diff; nothing is pushed until the owner approves."}), nil
}

// projectRepo is the project's git repository, or the refusal the
// assistant reads when there is none.
func (s *Service) projectRepo(ctx context.Context, project string) (dir, refusal string, err error) {
	const noFolder = "no Local Folder is set for this project: ask the owner to add its git repository in osFoundry (Settings → Local Folders)"
	if s.repos == nil {
		return "", noFolder, nil
	}
	dir, err = s.repos(ctx, project)
	if errors.Is(err, ErrNoRepository) {
		return "", err.Error(), nil
	}
	if err != nil {
		return "", "", fmt.Errorf("finding the repository of project %s: %w", project, err)
	}
	if dir == "" {
		return "", noFolder, nil
	}
	return dir, "", nil
}

// applyPullRequest opens an approved pull_request proposal. When it
// cannot (the token may not push, the base is gone, the forge refused),
// the proposal stays pending with Problem saying why, and backend/forge
// has left no pushed branch behind.
func (s *Service) applyPullRequest(ctx context.Context, id, user string) (Proposal, error) {
	s.applying.Lock()
	defer s.applying.Unlock()
	p, err := s.Proposal(ctx, id)
	if err != nil {
		return Proposal{}, err
	}
	if p.Status != ProposalPending {
		return Proposal{}, fmt.Errorf("deciding proposal %q: %w", id, ErrNotPending)
	}
	problem := ""
	var url string
	var number int64
	switch {
	case p.Request == nil:
		problem = "the proposal does not say which branch to propose; decline it and ask the assistant again"
	case s.prs == nil:
		problem = "this osFoundry cannot open pull requests (no forge is set up here)"
	default:
		url, number, err = s.prs.OpenPullRequest(ctx, p.Target, p.Request.Branch, p.Request.Base, p.Title, p.Request.Body)
		if errors.Is(err, context.Canceled) {
			return Proposal{}, fmt.Errorf("opening the pull request of proposal %q: %w", id, err)
		}
		if err != nil {
			problem = err.Error()
		}
	}
	if problem != "" {
		if err := s.proposals.SetOutcome(ctx, id, Outcome{Problem: problem}); err != nil {
			return Proposal{}, fmt.Errorf("recording why proposal %q was not opened: %w", id, err)
		}
		return s.Proposal(ctx, id)
	}
	o := Outcome{Branch: p.Request.Branch, URL: url, Number: number}
	if _, err := s.proposals.DecideIfPending(ctx, id, ProposalApproved, user, time.UnixMilli(s.ms()), &o); err != nil {
		return Proposal{}, fmt.Errorf("recording proposal %q as opened at %s: %w", id, url, err)
	}
	return s.Proposal(ctx, id)
}

// gitOut runs git in dir (argv, never a shell) and returns its output.
func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

func refOK(ctx context.Context, dir, ref string) bool {
	_, err := gitOut(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	return err == nil
}

// defaultBase is the branch origin's HEAD names, else main or master,
// whichever exists.
func defaultBase(ctx context.Context, dir string) string {
	if out, err := gitOut(ctx, dir, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if b := strings.TrimPrefix(strings.TrimSpace(out), "origin/"); b != "" {
			return b
		}
	}
	for _, b := range []string{"main", "master"} {
		if refOK(ctx, dir, "refs/heads/"+b) || refOK(ctx, dir, "refs/remotes/origin/"+b) {
			return b
		}
	}
	return "main"
}
