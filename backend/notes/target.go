package notes

import (
	"context"
	"encoding/json"
	"errors"
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
func (s *Store) CallTarget(ctx context.Context, tool string, args json.RawMessage) (Target, error) {
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

// Locate returns an item's current workspace and project.
func (s *Store) Locate(ctx context.Context, kind, id string) (Target, error) {
	table := map[string]string{ResourceNote: "notes", ResourceKnowledgeBase: "knowledge_bases", ResourceRecordChannel: "record_channels"}[kind]
	if table == "" {
		return Target{}, fmt.Errorf("%w: unknown resource kind %q", ErrInvalid, kind)
	}
	t := Target{Kind: kind, ID: id}
	err := s.db.QueryRowContext(ctx, `SELECT workspace_id, COALESCE(project_id, '') FROM `+table+` WHERE id = ?`, id).
		Scan(&t.Workspace, &t.Project)
	if errors.Is(err, errNoRows) {
		return t, fmt.Errorf("%s %s: %w", kind, id, ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("locating %s %s: %w", kind, id, lockErr(err))
	}
	return t, nil
}

// ProjectResources lists a project's Notes, knowledge bases and Record
// channels, including ones added later (it reads the project now).
func (s *Store) ProjectResources(ctx context.Context, projectID string) ([]Resource, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT 'note', id, title FROM notes WHERE project_id = ?
		UNION ALL SELECT 'knowledge_base', id, name FROM knowledge_bases WHERE project_id = ?
		UNION ALL SELECT 'record_channel', id, name FROM record_channels WHERE project_id = ?
		ORDER BY 1, 3, 2`, projectID, projectID, projectID)
	if err != nil {
		return nil, fmt.Errorf("listing resources of project %s: %w", projectID, lockErr(err))
	}
	defer rows.Close()
	out := []Resource{}
	for rows.Next() {
		r := Resource{Project: projectID}
		if err := rows.Scan(&r.Kind, &r.ID, &r.Title); err != nil {
			return nil, fmt.Errorf("listing resources of project %s: %w", projectID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
