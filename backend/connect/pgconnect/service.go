package pgconnect

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/pgproposals"
)

// NewService is the team server's Connected endpoint over pool: it
// migrates the connect tables, then the proposals (which name their
// connection from them), and returns connect's Service over both, unless
// opts already says where proposals live. Serve it with
// connect.NewServer(svc, connect.ServerConfig{PublicURL: …, People: …}),
// mount Server.Handler, and run Server.Janitor on every replica.
func NewService(ctx context.Context, pool *pgxpool.Pool, opts connect.Options) (*connect.Service, error) {
	st, err := Open(ctx, pool)
	if err != nil {
		return nil, err
	}
	if opts.Proposals == nil {
		props, err := pgproposals.Open(ctx, pool)
		if err != nil {
			return nil, fmt.Errorf("opening the Connected endpoint: %w", err)
		}
		opts.Proposals = props
	}
	svc, err := connect.New(ctx, st, opts)
	if err != nil {
		return nil, fmt.Errorf("opening the Connected endpoint: %w", err)
	}
	return svc, nil
}
