package chat

import (
	"context"
	"fmt"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/inventory"
)

// continueHistoryTurns bounds the earlier messages a continued chat shows.
const continueHistoryTurns = 200

// Conversations reads a past session's messages from its own file
// (inventory.Service, the External agents index; read-only).
type Conversations interface {
	Conversation(ctx context.Context, sessionID string, max int) ([]inventory.Row, error)
}

var _ Conversations = (*inventory.Service)(nil)

// SessionHistory is where "Continue here" reads the earlier conversation
// of a session made outside the app (SetHistory): the newest
// continueHistoryTurns messages the person typed or the agent answered.
func SessionHistory(c Conversations) HistoryFunc {
	return func(ctx context.Context, agent, sessionID string) ([]agentcli.Turn, error) {
		rows, err := c.Conversation(ctx, sessionID, continueHistoryTurns)
		if err != nil {
			return nil, fmt.Errorf("reading the earlier conversation of the %s session: %w", agent, err)
		}
		turns := make([]agentcli.Turn, 0, len(rows))
		for _, r := range rows {
			role := "assistant"
			if r.Kind == inventory.RowUser {
				role = "user"
			}
			turns = append(turns, agentcli.Turn{Role: role, Text: r.Text})
		}
		return turns, nil
	}
}
