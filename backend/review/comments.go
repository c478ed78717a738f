package review

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

var migrations = []store.Migration{
	// Comments on lines of a pane branch, by repository and branch (the
	// branch outlives its pane); kept until resolved.
	{Version: 1, SQL: `CREATE TABLE review_comments (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		repo TEXT NOT NULL,
		branch TEXT NOT NULL,
		path TEXT NOT NULL,
		line INTEGER NOT NULL,
		side TEXT NOT NULL,
		body TEXT NOT NULL,
		created_at INTEGER NOT NULL,
		sent_at INTEGER NOT NULL DEFAULT 0,
		resolved_at INTEGER NOT NULL DEFAULT 0);
		CREATE INDEX review_comments_branch ON review_comments(repo, branch)`},
	// "Send to agent" pressed while the pane's agent worked: the comments
	// go once it is idle, also after the app restarts (panes keep their id).
	{Version: 2, SQL: `CREATE TABLE review_queue (
		pane TEXT PRIMARY KEY,
		repo TEXT NOT NULL,
		branch TEXT NOT NULL,
		queued_at INTEGER NOT NULL)`},
}

// Comment is a person's note on one line of a branch's diff.
type Comment struct {
	ID     int64  `json:"id"`
	Path   string `json:"path"`
	Line   int    `json:"line"` // 1-based, in the side's file
	Side   string `json:"side"` // "new" (the branch's file) or "old" (the base's)
	Text   string `json:"text"`
	At     int64  `json:"at"`     // unix ms
	SentAt int64  `json:"sentAt"` // when it last went to the agent (0: never)
}

// ErrNoComment: the comment does not exist (it was resolved elsewhere).
var ErrNoComment = errors.New("no such comment")

// Comments keeps review comments in the app database.
type Comments struct {
	db  *sql.DB
	now func() time.Time
}

// OpenComments migrates the comments table.
func OpenComments(ctx context.Context, db *sql.DB) (*Comments, error) {
	if err := store.Migrate(ctx, db, "review", migrations); err != nil {
		return nil, err
	}
	return &Comments{db: db, now: time.Now}, nil
}

// Add keeps a comment on line of path in repo's branch.
func (c *Comments) Add(repo, branch string, in Comment) (Comment, error) {
	in.Text = strings.TrimSpace(in.Text)
	in.Path = strings.TrimSpace(in.Path)
	switch {
	case in.Text == "":
		return Comment{}, errors.New("the comment is empty — write what the agent should change")
	case in.Path == "" || in.Line < 1:
		return Comment{}, errors.New("a comment needs a file and a line of its diff")
	case in.Side != "new" && in.Side != "old":
		return Comment{}, fmt.Errorf("side %q: a comment is on the branch's line (new) or the base's (old)", in.Side)
	}
	in.At = c.now().UnixMilli()
	res, err := c.db.Exec(`INSERT INTO review_comments (repo, branch, path, line, side, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		repo, branch, in.Path, in.Line, in.Side, in.Text, in.At)
	if err != nil {
		return Comment{}, fmt.Errorf("keeping the comment: %w", err)
	}
	in.ID, _ = res.LastInsertId()
	return in, nil
}

// Open lists the branch's comments not resolved yet, by file and line.
func (c *Comments) Open(repo, branch string) ([]Comment, error) {
	rows, err := c.db.Query(`SELECT id, path, line, side, body, created_at, sent_at FROM review_comments
		WHERE repo = ? AND branch = ? AND resolved_at = 0 ORDER BY path, line, id`, repo, branch)
	if err != nil {
		return nil, fmt.Errorf("reading the comments: %w", err)
	}
	defer rows.Close()
	out := []Comment{}
	for rows.Next() {
		var k Comment
		if err := rows.Scan(&k.ID, &k.Path, &k.Line, &k.Side, &k.Text, &k.At, &k.SentAt); err != nil {
			return nil, fmt.Errorf("reading the comments: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// Resolve closes a comment: it is no longer shown or sent.
func (c *Comments) Resolve(repo, branch string, id int64) error {
	res, err := c.db.Exec(`UPDATE review_comments SET resolved_at = ? WHERE id = ? AND repo = ? AND branch = ? AND resolved_at = 0`,
		c.now().UnixMilli(), id, repo, branch)
	if err != nil {
		return fmt.Errorf("resolving the comment: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("comment %d: %w", id, ErrNoComment)
	}
	return nil
}

// markSent records that the comments went to the agent.
func (c *Comments) markSent(ids []int64) error {
	at := c.now().UnixMilli()
	for _, id := range ids {
		if _, err := c.db.Exec(`UPDATE review_comments SET sent_at = ? WHERE id = ?`, at, id); err != nil {
			return fmt.Errorf("marking the comments sent: %w", err)
		}
	}
	return nil
}

// Message is the one message "Send to agent" types: every comment with its
// file and line, on one line so an agent's prompt takes it whole (a
// newline would send it half-typed).
func Message(branch string, cs []Comment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Review comments on %s — please address each:", branch)
	for i, k := range cs {
		where := fmt.Sprintf("%s:%d", k.Path, k.Line)
		if k.Side == "old" {
			where += " (removed line)"
		}
		fmt.Fprintf(&b, " (%d) %s — %s", i+1, where, strings.Join(strings.Fields(k.Text), " "))
		if !strings.HasSuffix(b.String(), ".") {
			b.WriteString(";")
		}
	}
	return strings.TrimSuffix(b.String(), ";") + "."
}
