package chat

import (
	"context"
	"fmt"

	"github.com/osfoundry/desktop/backend/code"
)

// codeHost gives the Code screen the Local Folders and the chats it needs,
// without it reading their tables.
type codeHost struct{ s *Service }

var (
	_ code.Folders = codeHost{}
	_ code.Chats   = codeHost{}
)

func (h codeHost) Folders(ctx context.Context) ([]code.Folder, error) {
	fs, err := h.s.roles.Folders(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]code.Folder, len(fs))
	for i, f := range fs {
		out[i] = code.Folder{Path: f.Path, Missing: f.Missing}
	}
	return out, nil
}

func (h codeHost) ChatWorktree(ctx context.Context, chatID string) (bool, error) {
	c, err := h.s.getChat(ctx, chatID)
	return c.Worktree, err
}

func (h codeHost) ClearChatWorktree(ctx context.Context, chatID string) error {
	if _, err := h.s.db.ExecContext(ctx, `UPDATE pipeline_chats SET worktree = 0 WHERE id = ?`, chatID); err != nil {
		return fmt.Errorf("clearing the chat's worktree choice: %w", err)
	}
	return nil
}
