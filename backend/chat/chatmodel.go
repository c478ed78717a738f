package chat

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
)

// modelComponent is the store.Migrate component of a chat's own model: the
// model its CLI runs ("opus", "gpt-5.6-luna"), picked in New chat over
// the Worker role's or the agent's.
const modelComponent = "pipeline-chat-model"

var modelMigrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE pipeline_chat_model (
	chat_id TEXT PRIMARY KEY REFERENCES pipeline_chats(id) ON DELETE CASCADE,
	model TEXT NOT NULL
);`}}

// SetChatModel has a chat's runs ask their CLI for model ("" gives the
// choice back to the role or agent). It applies from the chat's next task.
func (s *Service) SetChatModel(ctx context.Context, chatID, model string) error {
	if _, err := s.getChat(ctx, chatID); err != nil {
		return fmt.Errorf("picking the chat's model: %w", err)
	}
	model = strings.TrimSpace(model)
	q, args := `DELETE FROM pipeline_chat_model WHERE chat_id = ?`, []any{chatID}
	if model != "" {
		if err := agentcli.CheckCLIModel(model); err != nil {
			return err
		}
		q, args = `INSERT INTO pipeline_chat_model(chat_id, model) VALUES(?,?)
			ON CONFLICT(chat_id) DO UPDATE SET model = excluded.model`, []any{chatID, model}
	}
	if _, err := s.db.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("saving the chat's model: %w", err)
	}
	s.changed(chatID)
	return nil
}

// ChatModel is the model picked for a chat ("" when it runs the role's or
// agent's).
func (s *Service) ChatModel(ctx context.Context, chatID string) (string, error) {
	var m string
	err := s.db.QueryRowContext(ctx, `SELECT model FROM pipeline_chat_model WHERE chat_id = ?`, chatID).Scan(&m)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the chat's model: %w", err)
	}
	return m, nil
}

// withChatModel is id (the role's or agent's model) running the chat's own
// CLI model, when one was picked.
func (s *Service) withChatModel(ctx context.Context, chatID, id string) (string, error) {
	m, err := s.ChatModel(ctx, chatID)
	if err != nil || m == "" || !agentcli.IsCLIModel(id) {
		return id, err
	}
	return agentcli.WithCLIModel(id, m), nil
}
