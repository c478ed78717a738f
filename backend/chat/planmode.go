package chat

import (
	"context"
	"fmt"

	"github.com/osfoundry/desktop/backend/store"
)

// planComponent is the store.Migrate component of the chats' plan mode:
// a chat listed here runs its tasks in plan mode, where the one tool
// executor refuses every tool that changes things (tools.Call.PlanMode).
const planComponent = "pipeline-plan"

var planMigrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE pipeline_plan_mode (
	chat_id TEXT PRIMARY KEY REFERENCES pipeline_chats(id) ON DELETE CASCADE
);`}}

// planCol reads a chat's plan mode beside its other columns (chatCols).
const planCol = `EXISTS(SELECT 1 FROM pipeline_plan_mode p WHERE p.chat_id = pipeline_chats.id)`

// SetPlanMode switches a chat's plan mode. It applies from the chat's next
// task: a run already going keeps the mode it started with.
func (s *Service) SetPlanMode(ctx context.Context, chatID string, on bool) (Chat, error) {
	if _, err := s.getChat(ctx, chatID); err != nil {
		return Chat{}, fmt.Errorf("switching plan mode: %w", err)
	}
	if err := s.savePlanMode(ctx, chatID, on); err != nil {
		return Chat{}, err
	}
	s.changed(chatID)
	return s.getChat(ctx, chatID)
}

func (s *Service) savePlanMode(ctx context.Context, chatID string, on bool) error {
	q := `DELETE FROM pipeline_plan_mode WHERE chat_id = ?`
	if on {
		q = `INSERT OR IGNORE INTO pipeline_plan_mode(chat_id) VALUES(?)`
	}
	if _, err := s.db.ExecContext(ctx, q, chatID); err != nil {
		return fmt.Errorf("saving the chat's plan mode: %w", err)
	}
	return nil
}
