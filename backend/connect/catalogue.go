package connect

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/osfoundry/desktop/backend/tools"
)

// builtinHandler runs a tool that belongs to the endpoint itself and needs
// the connection (list_granted_resources, link_current_chat, propose_…).
type builtinHandler func(ctx context.Context, a *allowed, args json.RawMessage) (tools.Result, error)

// builtinTargeter names the item a built-in call touches.
type builtinTargeter func(ctx context.Context, args json.RawMessage) (Target, error)

// entry is one tool of the endpoint's catalogue.
type entry struct {
	tools.Tool
	source  ToolSource // nil for built-ins
	builtin builtinHandler
	target  builtinTargeter // nil: the call touches no single item
}

// catalogue is the public tool list (no user data in it) in a fixed order.
type catalogue struct {
	tools map[string]*entry
	order []string
}

func newCatalogue(s *Service) (*catalogue, error) {
	c := &catalogue{tools: map[string]*entry{}}
	add := func(e *entry) error {
		if _, dup := c.tools[e.Name]; dup {
			return fmt.Errorf("tool %q is offered twice", e.Name)
		}
		if !slices.Contains([]string{tools.ScopeRead, tools.ScopeWrite, tools.ScopeRun, tools.ScopeModels}, e.Scope) {
			return fmt.Errorf("tool %q has no valid scope (%q)", e.Name, e.Scope)
		}
		if len(e.InputSchema) == 0 {
			e.InputSchema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		c.tools[e.Name] = e
		c.order = append(c.order, e.Name)
		return nil
	}
	for _, e := range s.builtins() {
		if err := add(e); err != nil {
			return nil, err
		}
	}
	for _, t := range s.res.Tools() {
		if err := add(&entry{Tool: t, source: s.res}); err != nil {
			return nil, err
		}
	}
	for _, src := range s.extra {
		for _, t := range src.Tools() {
			if err := add(&entry{Tool: t, source: src}); err != nil {
				return nil, err
			}
		}
	}
	if s.runner != nil {
		for _, t := range s.runner.Tools() {
			if err := add(&entry{Tool: t, source: s.runner}); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// mcpTool renders an entry for tools/list: annotations from the tool's
// policy, and securitySchemes in _meta (the SDK's Tool has no such field;
// serveToolsList also puts it at the top level, where the articles show it).
func (e *entry) mcpTool() *mcp.Tool {
	f := false
	destructive := e.Destructive && !e.ReadOnly
	return &mcp.Tool{
		Name:        e.Name,
		Description: e.Description,
		InputSchema: e.InputSchema,
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:    e.ReadOnly,
			DestructiveHint: &destructive,
			OpenWorldHint:   &f,
		},
		Meta: mcp.Meta{"securitySchemes": []map[string]any{{"type": "oauth2", "scopes": []string{e.Scope}}}},
	}
}

// ScopeFor returns the scope a tool needs ("" for an unknown tool).
func (s *Service) ScopeFor(tool string) string {
	if e, ok := s.cat.tools[tool]; ok {
		return e.Scope
	}
	return ""
}

// ToolNames lists the catalogue in order.
func (s *Service) ToolNames() []string { return slices.Clone(s.cat.order) }
