package pgmessages

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/messages"
)

// OpenStore opens the backend and returns the message store over it, as
// messages.Open does on the desktop: projects made before the discussion
// trigger existed (or before this component was migrated) get their
// discussion channel now. Open the notes store first.
func OpenStore(ctx context.Context, pool *pgxpool.Pool, opts messages.Options) (*messages.Store, *Backend, error) {
	b, err := Open(ctx, pool)
	if err != nil {
		return nil, nil, err
	}
	s := messages.New(b, opts)
	if err := s.EnsureDiscussions(ctx); err != nil {
		return nil, nil, fmt.Errorf("opening message store: %w", err)
	}
	return s, b, nil
}
