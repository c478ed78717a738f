package messages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

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
// post with the same key. The key lookup, the post and its key commit in
// one Backend.Write: a retry racing the first attempt waits for it and
// replays it.
func (s *Store) PostMessage(ctx context.Context, p Post) (Message, bool, error) {
	if err := CheckText(p.Text); err != nil {
		return Message{}, false, err
	}
	for _, f := range []struct{ name, v string }{{"idempotency_key", p.Key}, {"reply_to", p.ReplyTo}, {"author", p.Author}, {"author name", p.AuthorName}} {
		if !Storable(f.v) {
			return Message{}, false, fmt.Errorf("%w: %s must be UTF-8 text without NUL characters", ErrInvalid, f.name)
		}
	}
	c, err := s.Channel(ctx, p.Channel)
	if err != nil {
		return Message{}, false, err
	}
	hash := postHash(p)
	if p.AuthorName == "" {
		p.AuthorName = p.Author
	}
	var m Message
	replayed := false
	err = s.b.Write(ctx, func(tx Tx) error {
		rows := tx.Posts()
		if p.Key != "" {
			k, err := rows.Key(ctx, c.Workspace, p.Key)
			switch {
			case err == nil:
				if k.ArgsHash != hash {
					return fmt.Errorf("posting: %w (key %q)", ErrKeyReused, p.Key)
				}
				if m, err = rows.Message(ctx, k.MessageID); err != nil {
					return fmt.Errorf("reading replayed post: %w", err)
				}
				replayed = true
				return nil
			case !errors.Is(err, ErrNotFound):
				return fmt.Errorf("posting: looking up idempotency key: %w", err)
			}
		}
		if p.ReplyTo != "" {
			ok, err := rows.InChannel(ctx, p.ReplyTo, c.ID)
			if err != nil {
				return fmt.Errorf("posting: reading reply_to: %w", err)
			}
			if !ok {
				return fmt.Errorf("%w: reply_to %s is not a message of channel %s; use list_channel_messages to find message ids",
					ErrInvalid, p.ReplyTo, c.ID)
			}
		}
		m = Message{ID: newID("msg_"), Channel: c.ID, AuthorKind: p.AuthorKind, Author: p.Author, AuthorName: p.AuthorName,
			Text: p.Text, ReplyTo: p.ReplyTo, CreatedAt: s.stamp()}
		var err error
		if m.Seq, err = rows.InsertMessage(ctx, m); err != nil {
			return fmt.Errorf("posting: %w", err)
		}
		if p.Key != "" {
			if err := rows.InsertKey(ctx, c.Workspace, p.Key, StoredKey{ArgsHash: hash, MessageID: m.ID}); err != nil {
				return fmt.Errorf("posting: storing idempotency key: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return Message{}, false, err
	}
	if !replayed {
		s.announce(c, m)
	}
	return m, replayed, nil
}

func postHash(p Post) string {
	h := sha256.New()
	for _, f := range []string{p.Channel, p.Author, p.Text, p.ReplyTo} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Message returns one post by its id (ErrNotFound when there is none).
func (s *Store) Message(ctx context.Context, id string) (Message, error) {
	return s.b.Pool().Posts().Message(ctx, id)
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
	ms, err := s.b.Pool().Posts().Messages(ctx, channel, since, limit)
	if err != nil {
		return nil, fmt.Errorf("reading messages: %w", err)
	}
	return ms, nil
}
