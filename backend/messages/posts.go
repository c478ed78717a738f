package messages

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
)

const messageCols = `seq, id, channel_id, author_kind, author, author_name, text, reply_to, created_at`

func scanMessage(r interface{ Scan(...any) error }) (Message, error) {
	var m Message
	err := r.Scan(&m.Seq, &m.ID, &m.Channel, &m.AuthorKind, &m.Author, &m.AuthorName, &m.Text, &m.ReplyTo, &m.CreatedAt)
	return m, err
}

// Post is one post to write.
type Post struct {
	Channel    string
	AuthorKind string // AuthorPerson or AuthorAssistant
	Author     string // the person's id or the caller ("connect:<id>")
	AuthorName string
	Text       string
	ReplyTo    string // "" or a message id of the same channel
	// Key makes a retry return the first post instead of a second copy
	// (required for assistants, optional for the person).
	Key string
}

// ErrKeyReused: the idempotency key was used for a different post.
var ErrKeyReused = errors.New("idempotency key already used for a different post")

// PostMessage writes a post and reports whether it replayed an earlier
// post with the same key.
func (s *Store) PostMessage(ctx context.Context, p Post) (Message, bool, error) {
	if err := CheckText(p.Text); err != nil {
		return Message{}, false, err
	}
	c, err := s.Channel(ctx, p.Channel)
	if err != nil {
		return Message{}, false, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Message{}, false, fmt.Errorf("posting: %w", err)
	}
	defer tx.Rollback()
	hash := postHash(p)
	if p.Key != "" {
		var prevHash, prevID string
		err := tx.QueryRowContext(ctx, `SELECT args_hash, message_id FROM message_keys WHERE workspace_id = ? AND key = ?`,
			c.Workspace, p.Key).Scan(&prevHash, &prevID)
		switch {
		case err == nil:
			if prevHash != hash {
				return Message{}, false, fmt.Errorf("posting: %w (key %q)", ErrKeyReused, p.Key)
			}
			m, err := scanMessage(tx.QueryRowContext(ctx, `SELECT `+messageCols+` FROM messages WHERE id = ?`, prevID))
			if err != nil {
				return Message{}, false, fmt.Errorf("reading replayed post: %w", err)
			}
			return m, true, nil
		case !errors.Is(err, sql.ErrNoRows):
			return Message{}, false, fmt.Errorf("posting: looking up idempotency key: %w", err)
		}
	}
	if p.ReplyTo != "" {
		var one int
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM messages WHERE id = ? AND channel_id = ?`, p.ReplyTo, c.ID).Scan(&one); err != nil {
			return Message{}, false, fmt.Errorf("%w: reply_to %s is not a message of channel %s; use list_channel_messages to find message ids",
				ErrInvalid, p.ReplyTo, c.ID)
		}
	}
	if p.AuthorName == "" {
		p.AuthorName = p.Author
	}
	m := Message{ID: newID("msg_"), Channel: c.ID, AuthorKind: p.AuthorKind, Author: p.Author, AuthorName: p.AuthorName,
		Text: p.Text, ReplyTo: p.ReplyTo, CreatedAt: s.stamp()}
	res, err := tx.ExecContext(ctx, `INSERT INTO messages (id, channel_id, author_kind, author, author_name, text, reply_to, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, m.ID, m.Channel, m.AuthorKind, m.Author, m.AuthorName, m.Text, m.ReplyTo, m.CreatedAt)
	if err != nil {
		return Message{}, false, fmt.Errorf("posting: %w", err)
	}
	if m.Seq, err = res.LastInsertId(); err != nil {
		return Message{}, false, fmt.Errorf("posting: %w", err)
	}
	if p.Key != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO message_keys (workspace_id, key, args_hash, message_id) VALUES (?, ?, ?, ?)`,
			c.Workspace, p.Key, hash, m.ID); err != nil {
			return Message{}, false, fmt.Errorf("posting: storing idempotency key: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return Message{}, false, fmt.Errorf("posting: committing: %w", err)
	}
	s.announce(c, m)
	return m, false, nil
}

func postHash(p Post) string {
	h := sha256.New()
	for _, f := range []string{p.Channel, p.Author, p.Text, p.ReplyTo} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ListMessages returns a channel's posts after seq since (0 = from the
// start), oldest first, at most limit (0 = DefaultListLimit); when more
// than limit are newer, it returns the newest limit of them.
func (s *Store) ListMessages(ctx context.Context, channel string, since int64, limit int) ([]Message, error) {
	if limit <= 0 {
		limit = DefaultListLimit
	}
	if limit > MaxListLimit {
		limit = MaxListLimit
	}
	rows, err := s.db.QueryContext(ctx, `SELECT * FROM (SELECT `+messageCols+` FROM messages
		WHERE channel_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`, channel, since, limit)
	if err != nil {
		return nil, fmt.Errorf("reading messages: %w", err)
	}
	defer rows.Close()
	out := []Message{}
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, fmt.Errorf("reading messages: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
