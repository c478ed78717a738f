package pgmessages

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/messages"
)

const messageCols = `seq, id, channel_id, author_kind, author, author_name, text, reply_to, created_at`

func scanMessage(r pgx.Row) (messages.Message, error) {
	var m messages.Message
	err := r.Scan(&m.Seq, &m.ID, &m.Channel, &m.AuthorKind, &m.Author, &m.AuthorName, &m.Text, &m.ReplyTo, &m.CreatedAt)
	return m, err
}

// Key waits, inside a Write, for any other transaction that looked the
// same key up first to finish, then reads it: the key's lock is held
// until this transaction ends, so of two racing posts with one key the
// second finds the first's key and replays its post.
func (r postRows) Key(ctx context.Context, workspace, key string) (messages.StoredKey, error) {
	var k messages.StoredKey
	if !stored(workspace, key) {
		return k, notFound(pgx.ErrNoRows, "idempotency key %q", key)
	}
	err := rowsOn(r).locked(ctx, lockKey, fmt.Sprintf("%d:%s%s", len(workspace), workspace, key), func(q querier) error {
		// A statement of its own: its snapshot is taken after the lock.
		return q.QueryRow(ctx, `SELECT args_hash, message_id FROM message_keys WHERE workspace_id = $1 AND key = $2`,
			workspace, key).Scan(&k.ArgsHash, &k.MessageID)
	})
	return k, notFound(err, "idempotency key %q", key)
}

func (r postRows) InsertKey(ctx context.Context, workspace, key string, k messages.StoredKey) error {
	if _, err := r.q.Exec(ctx, `INSERT INTO message_keys (workspace_id, key, args_hash, message_id) VALUES ($1, $2, $3, $4)`,
		workspace, key, k.ArgsHash, k.MessageID); err != nil {
		return fmt.Errorf("storing idempotency key %q: %w", key, err)
	}
	return nil
}

// InsertMessage takes the channel's lock before the identity column hands
// out the seq and keeps it until commit, so within a channel seqs become
// visible in increasing order: a reader that saw seq n never later finds
// a new post below n.
func (r postRows) InsertMessage(ctx context.Context, m messages.Message) (int64, error) {
	var seq int64
	err := rowsOn(r).locked(ctx, lockChannel, m.Channel, func(q querier) error {
		return q.QueryRow(ctx, `INSERT INTO messages (id, channel_id, author_kind, author, author_name, text, reply_to, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING seq`,
			m.ID, m.Channel, m.AuthorKind, m.Author, m.AuthorName, m.Text, m.ReplyTo, m.CreatedAt).Scan(&seq)
	})
	if err != nil {
		return 0, fmt.Errorf("storing message %s: %w", m.ID, err)
	}
	return seq, nil
}

func (r postRows) Message(ctx context.Context, id string) (messages.Message, error) {
	if !stored(id) {
		return messages.Message{}, notFound(pgx.ErrNoRows, "message %q", id)
	}
	m, err := scanMessage(r.q.QueryRow(ctx, `SELECT `+messageCols+` FROM messages WHERE id = $1`, id))
	return m, notFound(err, "message %s", id)
}

func (r postRows) InChannel(ctx context.Context, id, channel string) (bool, error) {
	var ok bool
	if !stored(id, channel) {
		return false, nil
	}
	if err := r.q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM messages WHERE id = $1 AND channel_id = $2)`, id, channel).Scan(&ok); err != nil {
		return false, fmt.Errorf("reading message %s: %w", id, err)
	}
	return ok, nil
}

func (r postRows) Messages(ctx context.Context, channel string, since int64, limit int) ([]messages.Message, error) {
	if !stored(channel) {
		return []messages.Message{}, nil
	}
	rows, err := r.q.Query(ctx, `SELECT * FROM (SELECT `+messageCols+` FROM messages
		WHERE channel_id = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3) newest ORDER BY seq`, channel, since, limit)
	if err != nil {
		return nil, fmt.Errorf("reading the messages of %s: %w", channel, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (messages.Message, error) { return scanMessage(row) })
	if err != nil {
		return nil, fmt.Errorf("reading the messages of %s: %w", channel, err)
	}
	if out == nil {
		out = []messages.Message{}
	}
	return out, nil
}
