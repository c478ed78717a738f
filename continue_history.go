package main

import (
	"context"
	"fmt"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/inventory"
	"github.com/osfoundry/desktop/backend/pipeline"
)

// continueHistoryTurns bounds the earlier messages a continued chat shows.
const continueHistoryTurns = 200

// continueHistory reads "Continue here"'s earlier conversation from the
// session's own file through the External agents index (read-only).
func continueHistory(inv *inventory.Service) pipeline.HistoryFunc {
	return func(ctx context.Context, agent, sessionID string) ([]agentcli.Turn, error) {
		rows, err := inv.Conversation(ctx, sessionID, continueHistoryTurns)
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
