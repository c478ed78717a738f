package messages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

const messageCols = `seq, id, channel_id, author_kind, author, author_name, text, reply_to, created_at`

func scanMessage(r interface{ Scan(...any) error }) (Message, error) {
	var m Message
	err := r.Scan(&m.Seq, &m.ID, &m.Channel, &m.AuthorKind, &m.Author, &m.AuthorName, &m.Text, &m.ReplyTo, &m.CreatedAt)
	return m, err
}

func (t sqlitePosts) Key(ctx context.Context, workspace, key string) (StoredKey, error) {
	var k StoredKey
	err := t.q.QueryRowContext(ctx, `SELECT args_hash, message_id FROM message_keys WHERE workspace_id = ? AND key = ?`,
		workspace, key).Scan(&k.ArgsHash, &k.MessageID)
	if errors.Is(err, sql.ErrNoRows) {
		return StoredKey{}, fmt.Errorf("idempotency key %q: %w", key, ErrNotFound)
	}
	return k, err
}

func (t sqlitePosts) InsertKey(ctx context.Context, workspace, key string, k StoredKey) error {
	_, err := t.q.ExecContext(ctx, `INSERT INTO message_keys (workspace_id, key, args_hash, message_id) VALUES (?, ?, ?, ?)`,
		workspace, key, k.ArgsHash, k.MessageID)
	return err
}

func (t sqlitePosts) InsertMessage(ctx context.Context, m Message) (int64, error) {
	res, err := t.q.ExecContext(ctx, `INSERT INTO messages (id, channel_id, author_kind, author, author_name, text, reply_to, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, m.ID, m.Channel, m.AuthorKind, m.Author, m.AuthorName, m.Text, m.ReplyTo, m.CreatedAt)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func (t sqlitePosts) Message(ctx context.Context, id string) (Message, error) {
	m, err := scanMessage(t.q.QueryRowContext(ctx, `SELECT `+messageCols+` FROM messages WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, fmt.Errorf("message %s: %w", id, ErrNotFound)
	}
	return m, err
}

func (t sqlitePosts) InChannel(ctx context.Context, id, channel string) (bool, error) {
	var one int
	err := t.q.QueryRowContext(ctx, `SELECT 1 FROM messages WHERE id = ? AND channel_id = ?`, id, channel).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func (t sqlitePosts) Messages(ctx context.Context, channel string, since int64, limit int) ([]Message, error) {
	rows, err := t.q.QueryContext(ctx, `SELECT * FROM (SELECT `+messageCols+` FROM messages
		WHERE channel_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`, channel, since, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Message{}
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
