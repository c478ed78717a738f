package connect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/changeset"
	"github.com/osfoundry/desktop/backend/tools"
)

// kindChangeSet is the proposal kind propose_change_set queues: files or a
// patch for the project's git repository, applied on approval as a commit
// on a new branch (backend/changeset). Git runs on this machine with the
// owner's setup; no credential ever goes to the assistant, nothing is
// pushed.
const kindChangeSet = "change_set"

// RepoFolder finds the git repository (Local Folder) a project is tied to.
// It wraps ErrNoRepository when the project has none, with a message that
// says what the owner does about it.
type RepoFolder func(ctx context.Context, project string) (string, error)

// ErrNoRepository means the project is tied to no git repository, so a
// change set for it has nowhere to apply.
var ErrNoRepository = errors.New("no git repository is tied to this project")

// FileChange is one file of a change set as the card shows it: the text
// at HEAD when it was proposed (Added when there was none) and the new one.
type FileChange struct {
	Path   string `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
	Added  bool   `json:"added"`
}

// Outcome is what approving a change set did, or why it could not.
type Outcome struct {
	Branch  string `json:"branch"`
	Commit  string `json:"commit"`
	Diff    string `json:"diff"`
	Problem string `json:"problem"`
	// URL and Number are the pull request an approved pull_request opened.
	URL    string `json:"url,omitempty"`
	Number int64  `json:"number,omitempty"`
	// Imported are the versions an approved file_import wrote.
	Imported []Imported `json:"imported,omitempty"`
}

type storedChange struct {
	Changes []FileChange    `json:"changes"`
	Patch   string          `json:"patch,omitempty"`
	Request *PullRequestAsk `json:"request,omitempty"`
	Import  *FileImportAsk  `json:"import,omitempty"`
}

const changeSetSchema = `{"type":"object","properties":{
"project_id":{"type":"string","maxLength":200,"description":"Project the change belongs to (from list_granted_resources); it applies to that project's git repository."},
"title":{"type":"string","maxLength":200,"description":"One line the owner reads under Needs your approval; also the commit message."},
"files":{"type":"array","maxItems":200,"items":{"type":"object","properties":{"path":{"type":"string","maxLength":1024,"description":"Relative to the repository root, forward slashes."},"content":{"type":"string","description":"The whole new text of the file."}},"required":["path","content"],"additionalProperties":false},"description":"Whole files to write, at most 200 files and 1 MiB of text in all. Give files or patch, not both."},
"patch":{"type":"string","description":"A unified diff (git diff format) against the repository's current HEAD, at most 1 MiB. Regular text files only: no symbolic links, submodules or mode changes."},
"details":{"type":"string","maxLength":8000,"description":"Why, for the owner."}},
"required":["project_id","title"],"additionalProperties":false}`

func (s *Service) changeSetTool() *entry {
	return &entry{Tool: tools.Tool{Meta: tools.Meta{Name: "propose_change_set", Scope: tools.ScopeWrite,
		Description: "Propose a change to the project's git repository: whole files or a unified patch. Nothing changes until the owner approves it under Needs your approval in osFoundry; then it is committed on a new branch osfoundry/proposal-<id> (the owner's checkout and uncommitted work are never touched, nothing is pushed). Check the outcome with get_proposal_status.",
		InputSchema: json.RawMessage(changeSetSchema)}},
		builtin: s.proposeChangeSet, target: projectTarget(true)}
}

func (s *Service) proposeChangeSet(ctx context.Context, a *allowed, args json.RawMessage) (tools.Result, error) {
	var in struct {
		ProjectID string           `json:"project_id"`
		Title     string           `json:"title"`
		Files     []changeset.File `json:"files"`
		Patch     string           `json:"patch"`
		Details   string           `json:"details"`
	}
	if err := decodeStrict(args, &in, "propose_change_set", "project_id", "title", "files", "patch", "details"); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	if strings.TrimSpace(in.Title) == "" {
		return tools.ErrorResult("title is required"), nil
	}
	if why := proposalFieldProblem(in.ProjectID, in.Title, "", in.Details, nil); why != "" {
		return tools.ErrorResult(why), nil
	}
	c, err := changeset.Change{Files: in.Files, Patch: in.Patch}.Validate()
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	var paths []string
	if c.Patch != "" {
		if paths, err = changeset.PatchPaths(c.Patch); err != nil {
			return tools.ErrorResult(err.Error()), nil
		}
	}
	const noFolder = "no Local Folder is set for this project: ask the owner to add its git repository in osFoundry (Settings → Local Folders)"
	if s.repos == nil {
		return tools.ErrorResult(noFolder), nil
	}
	dir, err := s.repos(ctx, in.ProjectID)
	if errors.Is(err, ErrNoRepository) {
		return tools.ErrorResult(err.Error()), nil
	}
	if err != nil {
		return tools.Result{}, fmt.Errorf("finding the repository of project %s: %w", in.ProjectID, err)
	}
	if dir == "" {
		return tools.ErrorResult(noFolder), nil
	}
	repo, err := changeset.Repository(ctx, dir)
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	files := append([]string{}, paths...)
	for _, f := range c.Files {
		files = append(files, f.Path)
	}
	if err := changeset.CheckHead(ctx, repo, files); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	changes := []FileChange{}
	for _, f := range c.Files {
		before, ok, err := changeset.AtHead(ctx, repo, f.Path)
		if err != nil {
			return tools.Result{}, err
		}
		changes = append(changes, FileChange{Path: f.Path, Before: before, After: f.Content, Added: !ok})
		paths = append(paths, f.Path)
	}
	if why := storedProblem(changes, c.Patch); why != "" {
		return tools.ErrorResult(why), nil
	}
	p, err := s.addProposal(ctx, Proposal{ConnectionID: a.grant.ConnectionID, Kind: kindChangeSet, Project: in.ProjectID,
		Target: repo, Title: in.Title, Files: paths, Details: in.Details, Changes: changes, Patch: c.Patch})
	if errors.Is(err, ErrTooManyPending) {
		return tools.ErrorResult(pendingRefusal), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	return tools.JSONResult(map[string]any{"proposal_id": p.ID, "status": p.Status, "files": paths,
		"note": "Waiting under Needs your approval; nothing changes until the owner approves. Approval commits it on branch " + changeset.BranchPrefix + p.ID + "."}), nil
}

// applyChangeSet applies a pending change set and marks it approved. When
// it cannot apply (a stale patch, a refused path, no repository) nothing
// is changed, the proposal stays pending and Problem says why, so the
// owner sees it on the card and can Decline.
func (s *Service) applyChangeSet(ctx context.Context, id, user string) (Proposal, error) {
	s.applying.Lock()
	defer s.applying.Unlock()
	p, err := s.Proposal(ctx, id)
	if err != nil {
		return Proposal{}, err
	}
	if p.Status != ProposalPending {
		return Proposal{}, fmt.Errorf("deciding proposal %q: %w", id, ErrNotPending)
	}
	c := changeset.Change{Patch: p.Patch}
	for _, f := range p.Changes {
		c.Files = append(c.Files, changeset.File{Path: f.Path, Content: f.After})
	}
	res, err := changeset.Apply(ctx, p.Target, p.ID, p.Title, c)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return Proposal{}, fmt.Errorf("applying proposal %q: %w", id, err)
		}
		if err := s.proposals.SetOutcome(ctx, id, Outcome{Problem: err.Error()}); err != nil {
			return Proposal{}, fmt.Errorf("recording why proposal %q did not apply: %w", id, err)
		}
		return s.Proposal(ctx, id)
	}
	o := Outcome{Branch: res.Branch, Commit: res.Commit, Diff: res.Diff}
	if _, err := s.proposals.DecideIfPending(ctx, id, ProposalApproved, user, time.UnixMilli(s.ms()), &o); err != nil {
		return Proposal{}, fmt.Errorf("recording proposal %q as applied on %s: %w", id, res.Branch, err)
	}
	return s.Proposal(ctx, id)
}
