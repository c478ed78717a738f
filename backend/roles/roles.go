package roles

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/tools"
)

// Role is one Pipeline Roles row.
type Role struct {
	Name       string `json:"name"`
	NeedsTools bool   `json:"needsTools"`
	// Prompt is the role's system prompt (appended to Claude's, first in
	// Codex's prompt).
	Prompt string `json:"prompt"`
	// Model is the assigned model id, else the default (Default is then
	// true); "" when none is assigned and no CLI can play the role.
	Model   string `json:"model"`
	Default bool   `json:"default"`
}

// The roles of the pipeline. Text-only roles (Titling, Compaction) may use
// cli:claude; the others need tools and refuse it.
var roleDefs = []Role{
	{Name: "Worker", NeedsTools: true, Prompt: "You are the osFoundry Worker. Carry out the user's task in the working folder, using your own tools and the osFoundry tools. Finish with a short summary of what you did; if you need a decision from the user, end with one clear question."},
	{Name: "Researcher", NeedsTools: true, Prompt: "You are the osFoundry Researcher. Find and check facts with the osFoundry tools (memory_search, code_search, extract_content) and the folder's files. Answer with sources."},
	{Name: "Document Agent", NeedsTools: true, Prompt: "You are the osFoundry Document Agent. Write and revise documents in the working folder as asked; keep the user's structure and voice."},
	{Name: "Reviewer", NeedsTools: true, Prompt: "You are the osFoundry Reviewer. Review the changes in the working folder and report problems with file and line."},
	{Name: "Titling", NeedsTools: false, Prompt: "Reply with a title of at most six words for the conversation. No quotes, no punctuation at the end."},
	{Name: "Compaction", NeedsTools: false, Prompt: "Summarise the conversation so far so it can continue from the summary alone: decisions, open questions, file names, next steps."},
}

// DefaultTools is the bridge allowlist of a tool role: the app's read-only
// tools that it registers. web_search and transcribe are not among them:
// the app has no service to back them, and the Pipeline screen says so
// (tools.Catalogue). The bridge never offers read_file, write_file or
// execute_command.
var DefaultTools = tools.DefaultBridge()

// RoleNames lists the pipeline's roles in display order.
func RoleNames() []string {
	out := make([]string, len(roleDefs))
	for i, r := range roleDefs {
		out[i] = r.Name
	}
	return out
}

// LookupRole returns a role's definition (case-insensitive name).
func LookupRole(name string) (Role, error) {
	for _, r := range roleDefs {
		if strings.EqualFold(r.Name, strings.TrimSpace(name)) {
			return r, nil
		}
	}
	return Role{}, fmt.Errorf("unknown role %q: the roles are %s", name, strings.Join(RoleNames(), ", "))
}

// ModelOption is one entry of the model picker.
type ModelOption struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Available bool   `json:"available"`
	// Reason says why an option cannot be picked (CLI not installed,
	// disabled, chat mode for a tool role).
	Reason string `json:"reason,omitempty"`
}

// ModelGroup is one group of the model picker.
type ModelGroup struct {
	Label string `json:"label"`
	// Provider is who serves the group's models and how they are paid for.
	Provider string        `json:"provider,omitempty"`
	Note     string        `json:"note,omitempty"`
	Models   []ModelOption `json:"models"`
}

// The CLI models' group of the picker (README "External AI and the pipeline"): its own section "CLI
// agents", served by External AI on the person's subscription.
const (
	GroupCLIAgents      = "CLI agents"
	GroupExternalAI     = "External AI (subscription)"
	GroupExternalAINote = "autonomous — runs in your local folder"
)

var modelLabels = map[string]string{
	agentcli.ModelClaudeChat:  "Claude Code — chat (no tools)",
	agentcli.ModelClaudeAgent: "Claude Code — agent",
	agentcli.ModelCodexAgent:  "Codex — agent",
}

// ModelGroups is the picker for a role ("" for no particular role): the
// CLI agents group, then whatever groups the app adds (API models).
func (s *Service) ModelGroups(ctx context.Context, role string) ([]ModelGroup, error) {
	needsTools := false
	if role != "" {
		r, err := LookupRole(role)
		if err != nil {
			return nil, err
		}
		needsTools = r.NeedsTools
	}
	g := ModelGroup{Label: GroupCLIAgents, Provider: GroupExternalAI, Note: GroupExternalAINote, Models: []ModelOption{}}
	for _, in := range s.ExternalAI(ctx) {
		for _, id := range in.Models {
			o := ModelOption{ID: id, Label: modelLabels[id], Available: true}
			m, _ := agentcli.ParseModel(id)
			switch {
			case !in.Installed:
				o.Available, o.Reason = false, in.Name+" is not installed"
			case !in.Enabled:
				o.Available, o.Reason = false, in.Name+" is turned off in External AI"
			case m.CheckRole(role, needsTools) != nil:
				o.Available, o.Reason = false, m.CheckRole(role, needsTools).Error()
			}
			g.Models = append(g.Models, o)
		}
	}
	groups := []ModelGroup{g}
	if s.o.ExtraModels != nil {
		groups = append(groups, s.o.ExtraModels()...)
	}
	return groups, nil
}

// Roles lists every role with its assigned model.
func (s *Service) Roles(ctx context.Context) ([]Role, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT role, model FROM pipeline_roles`)
	if err != nil {
		return nil, fmt.Errorf("reading pipeline roles: %w", err)
	}
	defer rows.Close()
	assigned := map[string]string{}
	for rows.Next() {
		var r, m string
		if err := rows.Scan(&r, &m); err != nil {
			return nil, fmt.Errorf("reading pipeline roles: %w", err)
		}
		assigned[r] = m
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading pipeline roles: %w", err)
	}
	out := slices.Clone(roleDefs)
	var clis []CLI
	for i := range out {
		out[i].Model = assigned[out[i].Name]
		if out[i].Model == "" {
			if clis == nil {
				clis = s.ExternalAI(ctx)
			}
			out[i].Model = defaultModel(out[i], clis)
			out[i].Default = out[i].Model != ""
		}
	}
	return out, nil
}

// SetRoleModel assigns a model to a role. CLI models are checked now, so
// "cli:codex" or cli:claude on a tool role fail with the spec's message
// when picked rather than at the first run. An empty model clears it.
func (s *Service) SetRoleModel(ctx context.Context, role, model string) (Role, error) {
	r, err := LookupRole(role)
	if err != nil {
		return Role{}, err
	}
	model = strings.TrimSpace(model)
	if agentcli.IsCLIModel(model) {
		m, err := agentcli.ParseModel(model)
		if err != nil {
			return Role{}, err
		}
		if err := m.CheckRole(r.Name, r.NeedsTools); err != nil {
			return Role{}, err
		}
	}
	if model == "" {
		_, err = s.db.ExecContext(ctx, `DELETE FROM pipeline_roles WHERE role = ?`, r.Name)
	} else {
		_, err = s.db.ExecContext(ctx, `INSERT INTO pipeline_roles(role, model, updated_at) VALUES(?,?,?)
			ON CONFLICT(role) DO UPDATE SET model = excluded.model, updated_at = excluded.updated_at`,
			r.Name, model, s.now().UnixMilli())
	}
	if err != nil {
		return Role{}, fmt.Errorf("saving the %s role: %w", r.Name, err)
	}
	r.Model = model
	return r, nil
}

// ErrNoModel is wrapped when a role has no model assigned and no
// installed, enabled CLI can play it.
var ErrNoModel = errors.New("No model is assigned")

// defaultModel is what a role nobody assigned plays on, so a first chat
// works out of the box: Claude Code when installed and turned on (agent
// mode for tool roles, the tool-less chat mode for text roles), else
// Codex's agent mode; "" when neither can.
func defaultModel(r Role, clis []CLI) string {
	prefs := []string{agentcli.ModelClaudeAgent, agentcli.ModelCodexAgent}
	if !r.NeedsTools {
		prefs = []string{agentcli.ModelClaudeChat, agentcli.ModelCodexAgent}
	}
	for _, id := range prefs {
		m, err := agentcli.ParseModel(id)
		if err != nil || m.CheckRole(r.Name, r.NeedsTools) != nil {
			continue
		}
		for _, c := range clis {
			if c.Agent == m.Agent && c.Installed && c.Enabled {
				return id
			}
		}
	}
	return ""
}

// RoleModel returns the model assigned to a role.
func (s *Service) RoleModel(ctx context.Context, role string) (Role, error) {
	r, err := LookupRole(role)
	if err != nil {
		return Role{}, err
	}
	err = s.db.QueryRowContext(ctx, `SELECT model FROM pipeline_roles WHERE role = ?`, r.Name).Scan(&r.Model)
	if errors.Is(err, sql.ErrNoRows) {
		if r.Model = defaultModel(r, s.ExternalAI(ctx)); r.Model != "" {
			r.Default = true
			return r, nil
		}
		return r, fmt.Errorf("%w to the %s role and no CLI can play it: install or turn on Claude Code or Codex in External AI, or pick a model in Pipeline → Pipeline Roles", ErrNoModel, r.Name)
	}
	if err != nil {
		return r, fmt.Errorf("reading the %s role: %w", r.Name, err)
	}
	return r, nil
}
