package connect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/tools"
)

// The propose_… tools are writes that wait for the owner under "Needs
// your approval", each carried out for real when approved: a change set
// (committed on a new branch), a pull request (opened on the forge) and a
// file import (new versions in a Note or knowledge base). Proposals for
// things this app does not have (Rooms, GitNest repositories) are not
// offered at all rather than approved into nothing. The assistant never
// receives a Git provider token or any other secret through them.

type projectArgs struct {
	ProjectID string `json:"project_id"`
}

func decodeArgs(args json.RawMessage, v any) error {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, v); err != nil {
		return errors.New(argsProblem(err))
	}
	return nil
}

// argsProblem says what is wrong with a tool's arguments in the caller's
// terms (argument names, JSON types); encoding/json's own text names Go
// types and fields.
func argsProblem(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			return "arguments must be a JSON object"
		}
		return fmt.Sprintf("argument %s must be a %s, not a %s", field, jsonKind(te.Type), te.Value)
	case errors.As(err, &se):
		return "arguments are not valid JSON"
	}
	return err.Error()
}

func jsonKind(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "list"
	}
	return "object"
}

// projectTarget makes a call that names project_id touch that project.
func projectTarget(required bool) builtinTargeter {
	return func(_ context.Context, args json.RawMessage) (Target, error) {
		var a projectArgs
		if err := decodeArgs(args, &a); err != nil {
			return Target{}, err
		}
		if a.ProjectID == "" {
			if required {
				return Target{}, fmt.Errorf("project_id is required; call list_granted_resources to see the projects you can use")
			}
			return Target{}, nil
		}
		return Target{Kind: "project", ID: a.ProjectID, Project: a.ProjectID}, nil
	}
}

func (s *Service) builtins() []*entry {
	out := []*entry{
		{Tool: tools.Tool{Meta: tools.Meta{Name: "list_granted_resources", Scope: tools.ScopeRead, ReadOnly: true,
			Description: "List what this connection may use right now: its workspace, the projects the owner added and the Message channels it was invited to. Call this first.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}},
			builtin: s.listGranted},
		{Tool: tools.Tool{Meta: tools.Meta{Name: "list_project_resources", Scope: tools.ScopeRead, ReadOnly: true,
			Description: "List the Notes, knowledge bases, Record channels and Message channels of a granted project (project_id), or of every granted project when project_id is omitted; narrow with resource_type and search. Message channels are the project's discussion channel and the channels this connection was invited to. Returns ids to pass to the other tools.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{
"project_id":{"type":"string","description":"A project from list_granted_resources; omit for all."},
"resource_type":{"type":"string","enum":["note","knowledge_base","record_channel","message_channel"],"description":"Only resources of this kind."},
"search":{"type":"string","maxLength":200,"description":"Only resources whose title contains this text (case-insensitive)."}},"additionalProperties":false}`)}},
			builtin: s.listProjectResources, target: projectTarget(false)},
		{Tool: tools.Tool{Meta: tools.Meta{Name: "link_current_chat", Scope: tools.ScopeWrite,
			Description: "Link this chat to a granted project under a label you choose, so work for that project can be routed here. The label is a routing hint, never an identity.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"project_id":{"type":"string"},"label":{"type":"string","description":"Short name for this chat, e.g. \"Claude – launch planning\"."}},"required":["project_id","label"],"additionalProperties":false}`)}},
			builtin: s.linkChat, target: projectTarget(true)},
		{Tool: tools.Tool{Meta: tools.Meta{Name: "get_proposal_status", Scope: tools.ScopeRead, ReadOnly: true,
			Description: "Read what became of a proposal you queued: still waiting for the owner, declined, or approved and carried out — with the pull request's link, the branch and commit of a change set, or the Note tab or article versions a file import wrote — or why it could not be carried out (problem).",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"proposal_id":{"type":"string"}},"required":["proposal_id"],"additionalProperties":false}`)}},
			builtin: s.proposalStatus, target: s.proposalTarget},
	}
	out = append(out, s.changeSetTool())
	// An endpoint that cannot carry one out (the team server writes no
	// Notes for an assistant, a headless one opens no pull requests) does
	// not offer it.
	if s.imports != nil {
		out = append(out, s.fileImportTool())
	}
	if s.prs != nil {
		out = append(out, s.pullRequestTool())
	}
	return out
}

func (s *Service) listGranted(ctx context.Context, a *allowed, args json.RawMessage) (tools.Result, error) {
	if err := decodeStrict(args, &struct{}{}, "list_granted_resources"); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	c, err := s.Connection(ctx, a.grant.ConnectionID)
	if err != nil {
		return tools.Result{}, err
	}
	return tools.JSONResult(map[string]any{
		"workspace": c.Workspace, "projects": c.Projects, "channels": c.Channels, "scopes": a.grant.Scopes,
	}), nil
}

// resourceTypes are list_project_resources' resource_type values.
var resourceTypes = []string{"note", "knowledge_base", "record_channel", "message_channel"}

// maxSearchChars bounds list_project_resources' search text.
const maxSearchChars = 200

type listResourcesArgs struct {
	ProjectID    string  `json:"project_id"`
	ResourceType *string `json:"resource_type"`
	Search       string  `json:"search"`
}

func (s *Service) listProjectResources(ctx context.Context, a *allowed, args json.RawMessage) (tools.Result, error) {
	var in listResourcesArgs
	if err := decodeStrict(args, &in, "list_project_resources", "project_id", "resource_type", "search"); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	if in.ResourceType != nil && !slices.Contains(resourceTypes, *in.ResourceType) {
		return tools.ErrorResult(fmt.Sprintf("resource_type %q is not a kind of resource; use one of %s, or omit it for all",
			*in.ResourceType, strings.Join(resourceTypes, ", "))), nil
	}
	if utf8.RuneCountInString(in.Search) > maxSearchChars {
		return tools.ErrorResult(fmt.Sprintf("search is longer than %d characters; search for a word of the title", maxSearchChars)), nil
	}
	projects := []string{a.target.Project}
	if a.target.Kind == "" {
		c, err := s.st.Connection(ctx, a.grant.ConnectionID)
		if err != nil {
			return tools.Result{}, fmt.Errorf("reading the projects of connection %s: %w", a.grant.ConnectionID, err)
		}
		projects = c.Projects
	}
	search := strings.ToLower(strings.TrimSpace(in.Search))
	out := []Resource{}
	for _, p := range projects {
		rs, err := s.res.ProjectResources(ctx, p)
		if err != nil {
			return tools.Result{}, fmt.Errorf("listing project %s: %w", p, err)
		}
		for _, r := range rs {
			if in.ResourceType != nil && r.Kind != *in.ResourceType || search != "" && !strings.Contains(strings.ToLower(r.Title), search) {
				continue
			}
			if r.NeedsInvite {
				ok, err := s.invited(ctx, a.grant.ConnectionID, r.ID, r.InviteFrom)
				if err != nil {
					return tools.Result{}, err
				}
				if !ok {
					continue
				}
			}
			out = append(out, r)
		}
	}
	return tools.JSONResult(map[string]any{"resources": out}), nil
}

// invited reports whether connection holds an invite to channel (by from,
// when from is set), as the per-call check counts it.
func (s *Service) invited(ctx context.Context, connID, channel, from string) (bool, error) {
	return s.st.Invited(ctx, connID, channel, from)
}

// decodeStrict decodes a tool's arguments like decodeArgs and refuses an
// argument the tool does not take, naming the ones it does.
func decodeStrict(args json.RawMessage, v any, tool string, names ...string) error {
	if len(args) != 0 && string(args) != "null" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(args, &m); err != nil {
			return errors.New(argsProblem(err))
		}
		unknown := []string{}
		for k := range m {
			if !slices.Contains(names, k) {
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			slices.Sort(unknown)
			if len(names) == 0 {
				return fmt.Errorf("unknown argument %q; %s accepts no arguments", unknown[0], tool)
			}
			return fmt.Errorf("unknown argument %q; %s accepts: %s", unknown[0], tool, strings.Join(names, ", "))
		}
	}
	return decodeArgs(args, v)
}

func (s *Service) linkChat(ctx context.Context, a *allowed, args json.RawMessage) (tools.Result, error) {
	var in struct {
		ProjectID string `json:"project_id"`
		Label     string `json:"label"`
	}
	if err := decodeStrict(args, &in, "link_current_chat", "project_id", "label"); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	in.Label = strings.TrimSpace(in.Label)
	if in.Label == "" || len(in.Label) > 120 {
		return tools.ErrorResult("label is required (at most 120 characters)"), nil
	}
	if err := s.st.LinkChat(ctx, a.grant.ConnectionID, in.ProjectID, in.Label, time.UnixMilli(s.ms())); err != nil {
		return tools.Result{}, err
	}
	return tools.JSONResult(map[string]any{"linked": true, "project_id": in.ProjectID, "label": in.Label,
		"note": "Work for this project may now be routed to this chat; it waits until someone opens the chat."}), nil
}

func (s *Service) proposalTarget(ctx context.Context, args json.RawMessage) (Target, error) {
	var in struct {
		ID string `json:"proposal_id"`
	}
	if err := decodeStrict(args, &in, "get_proposal_status", "proposal_id"); err != nil {
		return Target{}, err
	}
	p, err := s.Proposal(ctx, in.ID)
	if err != nil {
		return Target{Kind: "proposal", ID: in.ID}, nil // unknown: not_found
	}
	return Target{Kind: "project", ID: p.Project, Project: p.Project}, nil
}

func (s *Service) proposalStatus(ctx context.Context, a *allowed, args json.RawMessage) (tools.Result, error) {
	var in struct {
		ID string `json:"proposal_id"`
	}
	if err := decodeArgs(args, &in); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	p, err := s.Proposal(ctx, in.ID)
	if err != nil || p.ConnectionID != a.grant.ConnectionID {
		return tools.ErrorResult(DenyNotFound + ": " + denyText[DenyNotFound]), nil
	}
	return tools.JSONResult(proposalReport(p)), nil
}

// proposalReport is what get_proposal_status answers: the status and,
// once decided or tried, what actually happened.
func proposalReport(p Proposal) map[string]any {
	out := map[string]any{"proposal_id": p.ID, "status": p.Status, "title": p.Title, "kind": p.Kind}
	if p.Problem != "" {
		out["problem"] = p.Problem
		out["note"] = "Not carried out yet: the owner approved it but it failed for the reason in problem; it still waits under Needs your approval."
	}
	if p.Status != ProposalApproved {
		return out
	}
	switch p.Kind {
	case kindChangeSet:
		out["branch"], out["commit"] = p.Branch, p.Commit
	case KindPullRequest:
		out["url"], out["number"], out["branch"] = p.URL, p.Number, p.Branch
		if p.Request != nil {
			out["base"] = p.Request.Base
		}
	case KindFileImport:
		out["imported"] = p.Imported
	}
	return out
}
