package notes

import (
	"context"
	"encoding/json"
	"fmt"
)

// Resource kinds (Target.Kind, Resource.Kind).
const (
	ResourceNote          = "note"
	ResourceKnowledgeBase = "knowledge_base"
	ResourceRecordChannel = "record_channel"
)

// Target is the item a tool call touches, as the Connected endpoint's
// per-call access check needs it: the item's current workspace and project
// read from the store now, never from the token or the arguments.
type Target struct {
	Kind      string `json:"kind"` // ResourceNote, ResourceKnowledgeBase, ResourceRecordChannel; "" = no single item
	ID        string `json:"id"`
	Workspace string `json:"workspace_id"`
	Project   string `json:"project_id"` // "" when the item is in no project
}

// Resource is one item of a project (list_project_resources).
type Resource struct {
	Kind    string `json:"kind"`
	ID      string `json:"id"`
	Title   string `json:"title"`
	Project string `json:"project_id"`
}

// toolTarget says which argument names the item for each tool.
var toolTarget = map[string]struct{ kind, arg, table string }{
	ToolListNoteTabs:         {ResourceNote, "note_id", "notes"},
	ToolReadNoteTab:          {ResourceNote, "note_id", "notes"},
	ToolReadSheetRange:       {ResourceNote, "note_id", "notes"},
	ToolListNoteAttachments:  {ResourceNote, "note_id", "notes"},
	ToolEditNoteTab:          {ResourceNote, "note_id", "notes"},
	ToolCreateNoteTab:        {ResourceNote, "note_id", "notes"},
	ToolAddNoteSource:        {ResourceNote, "note_id", "notes"},
	ToolSearchKnowledgeBase:  {ResourceKnowledgeBase, "knowledge_base_id", "knowledge_bases"},
	ToolReadKnowledgeArticle: {ResourceKnowledgeBase, "knowledge_base_id", "knowledge_bases"},
	ToolListRecordItems:      {ResourceRecordChannel, "record_channel_id", "record_channels"},
	ToolReadRecordItem:       {ResourceRecordChannel, "record_channel_id", "record_channels"},
	ToolEditRecordItem:       {ResourceRecordChannel, "record_channel_id", "record_channels"},
}

// CallTarget tells which item a call of tool with args touches.
//
// Errors: ErrUnknownTool for a tool this store does not serve; ErrInvalid
// (with Target.Kind set) when the item argument is missing or not a
// string, so the caller can deny or let the tool report the schema error;
// ErrNotFound (with Kind and ID set) when no such item exists.
func (s *Places) CallTarget(ctx context.Context, tool string, args json.RawMessage) (Target, error) {
	tt, ok := toolTarget[tool]
	if !ok {
		return Target{}, fmt.Errorf("finding the target of %s: %w", tool, ErrUnknownTool)
	}
	t := Target{Kind: tt.kind}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return t, fmt.Errorf("%w: arguments must be a JSON object", ErrInvalid)
	}
	raw, ok := m[tt.arg]
	if !ok || json.Unmarshal(raw, &t.ID) != nil || t.ID == "" {
		return t, fmt.Errorf("%w: missing %s (a string)", ErrInvalid, tt.arg)
	}
	return s.Locate(ctx, tt.kind, t.ID)
}
