package notes

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/osfoundry/desktop/backend/tools"
)

// Tool names. The bridge and the Connected endpoint expose these
// same functions.
const (
	ToolListNoteTabs         = "list_note_tabs"
	ToolReadNoteTab          = "read_note_tab"
	ToolReadSheetRange       = "read_sheet_range"
	ToolListNoteAttachments  = "list_note_attachments"
	ToolEditNoteTab          = "edit_note_tab"
	ToolCreateNoteTab        = "create_note_tab"
	ToolAddNoteSource        = "add_note_source"
	ToolSearchKnowledgeBase  = "search_knowledge_base"
	ToolReadKnowledgeArticle = "read_knowledge_article"
	ToolListRecordItems      = "list_record_items"
	ToolReadRecordItem       = "read_record_item"
	ToolEditRecordItem       = "edit_record_item"
)

// conflictRule is in every write tool's description: the version check
// forces a re-read but cannot force the writer to use what it read, so the
// instruction is the only place the "re-apply, don't just refresh" rule
// can live (`osfoundry-bench notes` measures what refresh-only writers lose
// despite the check).
const conflictRule = " If the result is version_conflict, the item changed after you read it: re-read it, " +
	"re-apply your intended change to the current content, and write again with the new version and a NEW idempotency_key. " +
	"Never just refresh expected_version and resend your old content: that passes the check and silently overwrites the other edit."

// Tools returns every Notes, knowledge base and Records tool.
func (s *Store) Tools() []tools.Tool {
	out := s.Notes.toolList()
	out = append(out, s.searchKnowledgeBaseTool(), s.readKnowledgeArticleTool())
	return append(out, s.listRecordItemsTool(), s.readRecordItemTool(), s.editRecordItemTool())
}

// Tool returns the named tool, or false.
func (s *Store) Tool(name string) (tools.Tool, bool) {
	for _, t := range s.Tools() {
		if t.Name == name {
			return t, true
		}
	}
	return tools.Tool{}, false
}

func readMeta(name, desc string, sp spec) tools.Meta {
	return tools.Meta{Name: name, Description: desc, InputSchema: sp.schema(), ReadOnly: true, Scope: tools.ScopeRead, Unattended: true}
}

func writeMeta(name, desc string, sp spec) tools.Meta {
	return tools.Meta{Name: name, Description: desc + conflictRule, InputSchema: sp.schema(), Destructive: true, Scope: tools.ScopeWrite, Unattended: true}
}

// handler decodes arguments against sp into a fresh A and runs run. Schema
// errors become tool results that name the field, so the model can fix the
// call; ErrLocked and other store failures stay Go errors.
func handler[A any](sp spec, run func(ctx context.Context, c tools.Call, a *A) (tools.Result, error)) tools.Handler {
	return func(ctx context.Context, c tools.Call) (tools.Result, error) {
		if c.Workspace == "" {
			return tools.ErrorResult("no workspace is bound to this call; connect the assistant to a workspace first"), nil
		}
		a := new(A)
		if err := sp.decode(c.Args, a); err != nil {
			var ae *argError
			if errors.As(err, &ae) {
				return tools.ErrorResult(ae.msg), nil
			}
			return tools.Result{}, err
		}
		return run(ctx, c, a)
	}
}

// rawJSON keeps an argument undecoded until the operation knows its shape.
type rawJSON = json.RawMessage
