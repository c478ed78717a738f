package chat

import (
	"context"

	"github.com/osfoundry/desktop/backend/runs"
)

// chatInterrupted says in a chat that its run was going when the app last
// stopped (the run engine closed the run and kept what it had streamed).
func (s *Service) chatInterrupted(ctx context.Context, o runs.Outcome) error {
	if o.ChatID == "" {
		return nil
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_messages(chat_id, role, text, run_id, created_at) VALUES(?,?,?,?,?)`,
		o.ChatID, "error", o.Error, o.RunID, o.At.UnixMilli())
	return err
}
