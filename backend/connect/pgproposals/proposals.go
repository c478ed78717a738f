// Package pgproposals is the team server's proposal store:
// connect.ProposalRows over PostgreSQL, so connect's rules for proposals
// (the pending limit per connection, pending → approved or declined once,
// a change set applied before it reads approved) hold on every replica.
// proposaltest.RunSuite holds it to the same expectations as the
// desktop's SQLite table.
//
// Where the desktop relies on SQLite's single writer, it takes PostgreSQL
// locks instead: queueing a proposal holds its connection's advisory lock
// from the count to the insert, so replicas queueing for one connection
// at once never pass the limit together; a decision is one conditional
// UPDATE, which PostgreSQL re-checks after a concurrent one commits, so
// one decider wins.
//
// It reads connection names from the connect store's connect_connections
// and never writes them. The desktop never imports it.
package pgproposals

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/pgdb"
)

// Component is this package's name for pgdb.Migrate (table
// schema_proposals).
const Component = "proposals"

// ConnectionsTable is the connect store's table of connections (id,
// display_name) that proposals name their connection from.
const ConnectionsTable = "connect_connections"

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations are the component's goose migrations.
func Migrations() fs.FS { return pgdb.Embedded(migrationFiles) }

// lockConnection is the advisory lock class (the first key of the two-key
// form) of queueing a proposal for a connection.
const lockConnection = 0x7072 // "pr"

// Rows is connect.ProposalRows over a PostgreSQL pool.
type Rows struct{ pool *pgxpool.Pool }

var _ connect.ProposalRows = (*Rows)(nil)

// ErrNoConnections: the connect store's tables are not in the database.
var ErrNoConnections = errors.New("the connections table " + ConnectionsTable + " is missing")

// Open migrates the proposals table and returns the rows over it. The
// connect store must have migrated first (ErrNoConnections otherwise).
func Open(ctx context.Context, pool *pgxpool.Pool) (*Rows, error) {
	if err := pgdb.Migrate(ctx, pool, Component, Migrations()); err != nil {
		return nil, fmt.Errorf("opening proposals: %w", err)
	}
	var ok bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, ConnectionsTable).Scan(&ok); err != nil {
		return nil, fmt.Errorf("opening proposals: looking for %s: %w", ConnectionsTable, err)
	}
	if !ok {
		return nil, fmt.Errorf("opening proposals: %w: open the connect store before the proposals", ErrNoConnections)
	}
	return &Rows{pool: pool}, nil
}

// changeSet is how a change set is kept: the desktop's JSON shape.
type changeSet struct {
	Changes []connect.FileChange    `json:"changes"`
	Patch   string                  `json:"patch,omitempty"`
	Request *connect.PullRequestAsk `json:"request,omitempty"`
	Import  *connect.FileImportAsk  `json:"import,omitempty"`
}

// ms keeps a time to the millisecond, as the desktop does.
func ms(t time.Time) time.Time { return time.UnixMilli(t.UnixMilli()).UTC() }

// storable reports whether every id could be in a row: PostgreSQL refuses
// a NUL character or invalid UTF-8 in a query where SQLite finds nothing,
// so a lookup of such an id finds nothing here too.
func storable(ids ...string) bool {
	for _, id := range ids {
		if !utf8.ValidString(id) || containsNUL(id) {
			return false
		}
	}
	return true
}

func containsNUL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return true
		}
	}
	return false
}

func (r *Rows) InsertPendingIfUnder(ctx context.Context, p connect.Proposal, max int) (bool, error) {
	files := p.Files
	if files == nil {
		files = []string{}
	}
	var change any // SQL NULL unless a change set
	if p.Kind == connect.KindChangeSet || p.Request != nil || p.Import != nil {
		cs := changeSet{Changes: p.Changes, Patch: p.Patch, Request: p.Request, Import: p.Import}
		if cs.Changes == nil {
			cs.Changes = []connect.FileChange{}
		}
		b, err := json.Marshal(cs)
		if err != nil {
			return false, fmt.Errorf("encoding the change set of %s: %w", p.ID, err)
		}
		change = string(b)
	}
	stored := false
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockConnection, p.ConnectionID); err != nil {
			return fmt.Errorf("locking the proposals of %s: %w", p.ConnectionID, err)
		}
		// A statement of its own: it counts what committed before the lock.
		tag, err := tx.Exec(ctx, `INSERT INTO proposals (id, connection_id, kind, project, target, title, files, details, status, created_at, change_set)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10
			WHERE (SELECT COUNT(*) FROM proposals WHERE connection_id = $2 AND status = 'pending') < $11`,
			p.ID, p.ConnectionID, p.Kind, p.Project, p.Target, p.Title, files, p.Details, ms(p.CreatedAt), change, max)
		if err != nil {
			return fmt.Errorf("storing proposal %s: %w", p.ID, err)
		}
		stored = tag.RowsAffected() == 1
		return nil
	})
	return stored, err
}
