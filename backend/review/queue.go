package review

import (
	"fmt"
)

// queued reads the panes whose comments wait for their agent.
func (c *Comments) queued() (map[string]pending, error) {
	rows, err := c.db.Query(`SELECT pane, repo, branch FROM review_queue`)
	if err != nil {
		return nil, fmt.Errorf("reading the queued review comments: %w", err)
	}
	defer rows.Close()
	out := map[string]pending{}
	for rows.Next() {
		var pane string
		var p pending
		if err := rows.Scan(&pane, &p.repo, &p.branch); err != nil {
			return nil, fmt.Errorf("reading the queued review comments: %w", err)
		}
		out[pane] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the queued review comments: %w", err)
	}
	return out, nil
}

// queue records that the pane's comments wait for its agent.
func (c *Comments) queue(pane string, p pending) error {
	if _, err := c.db.Exec(`INSERT INTO review_queue (pane, repo, branch, queued_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(pane) DO UPDATE SET repo = excluded.repo, branch = excluded.branch, queued_at = excluded.queued_at`,
		pane, p.repo, p.branch, c.now().UnixMilli()); err != nil {
		return fmt.Errorf("queuing the comments: %w", err)
	}
	return nil
}

// unqueue drops the pane's queued send (its comments stay).
func (c *Comments) unqueue(pane string) error {
	if _, err := c.db.Exec(`DELETE FROM review_queue WHERE pane = ?`, pane); err != nil {
		return fmt.Errorf("dropping the queued send: %w", err)
	}
	return nil
}
