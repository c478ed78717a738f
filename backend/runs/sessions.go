package runs

import (
	"context"
	"fmt"
)

// SessionRun is a run that left a session in its CLI's own store.
type SessionRun struct {
	SessionID string
	RunID     string
	ChatID    string
	// Title is what a person knows the run by: its chat's title now (a
	// chat is titled after its first answer), else the run's own.
	Title string
}

// SessionRuns lists the runs that recorded a CLI session id. External
// agents uses it to show the app's own runs as such instead of as a
// person's sessions.
func (e *Engine) SessionRuns(ctx context.Context) ([]SessionRun, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT r.session_id, r.id, r.chat_id, COALESCE(NULLIF(c.title, ''), r.title)
		FROM pipeline_runs r LEFT JOIN pipeline_chats c ON c.id = r.chat_id AND r.chat_id != ''
		WHERE r.session_id != '' ORDER BY r.started_at`)
	if err != nil {
		return nil, fmt.Errorf("reading the runs' sessions: %w", err)
	}
	defer rows.Close()
	var out []SessionRun
	for rows.Next() {
		var s SessionRun
		if err := rows.Scan(&s.SessionID, &s.RunID, &s.ChatID, &s.Title); err != nil {
			return nil, fmt.Errorf("reading the runs' sessions: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
