// Package pgconnect is the team server's Connected endpoint state:
// connect.Store over PostgreSQL, so connect's rules (PKCE, resource
// indicators, refresh rotation and reuse revoking a family, expiry, the
// registration bound, the rate limits) hold across every replica behind
// one balancer. Authorize on one replica, redeem the code on another.
//
// Where the desktop relies on SQLite's single writer, it takes PostgreSQL
// locks instead: a code or refresh token is read FOR UPDATE inside a
// transaction that also holds its family's advisory lock, so two
// redemptions (or a rotation and a reuse) take turns and a revocation
// sees every token of the family; a registration counts and inserts under
// one advisory lock; a rate-limit bucket is a row locked while it is
// updated.
//
// It never imports the desktop's SQLite code paths, and the desktop never
// imports it (no pgx in the window app).
package pgconnect

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/pgdb"
)

// Component is this package's name for pgdb.Migrate (table schema_connect).
const Component = connect.Component

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations are the component's goose migrations.
func Migrations() fs.FS { return pgdb.Embedded(migrationFiles) }

// Advisory lock classes (the first key of the two-key form, which never
// meets pgdb's one-key migration locks); the second key is a hash.
const (
	lockFamily   = 0x6366 // a token family: its code, rotations, revocation
	lockRegister = 0x6372 // the registration bound
)

// Store is connect.Store over a PostgreSQL pool.
type Store struct{ pool *pgxpool.Pool }

var _ connect.Store = (*Store)(nil)

// Open migrates the connect tables and returns the store over them.
func Open(ctx context.Context, pool *pgxpool.Pool) (*Store, error) {
	if err := pgdb.Migrate(ctx, pool, Component, Migrations()); err != nil {
		return nil, fmt.Errorf("opening connect store: %w", err)
	}
	return &Store{pool: pool}, nil
}

// ms keeps a time to the millisecond, as the desktop does.
func ms(t time.Time) time.Time { return time.UnixMilli(t.UnixMilli()).UTC() }

// msOrNull is NULL for the zero time.
func msOrNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ms(t)
}

func utc(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// storable reports whether every value could be in a row: PostgreSQL
// refuses a NUL character or invalid UTF-8 in a query where SQLite finds
// nothing, so a lookup of such a value finds nothing here too.
func storable(vs ...string) bool {
	for _, v := range vs {
		if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
			return false
		}
	}
	return true
}

// clean makes text PostgreSQL can keep: valid UTF-8 without NUL.
func clean(v string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(v, "\uFFFD"), "\x00", "\uFFFD")
}

func notFound(err error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, connect.ErrNotFound)
	}
	return fmt.Errorf("reading %s: %w", what, err)
}

func missing(what string) error { return fmt.Errorf("%s: %w", what, connect.ErrNotFound) }

func (s *Store) strings(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("querying connect store: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("querying connect store: %w", err)
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

func (s *Store) changed(ctx context.Context, doing, q string, args ...any) (bool, error) {
	tag, err := s.pool.Exec(ctx, q, args...)
	if err != nil {
		return false, fmt.Errorf("%s: %w", doing, err)
	}
	return tag.RowsAffected() > 0, nil
}

func (s *Store) InsertUser(ctx context.Context, u connect.User, at time.Time) (bool, error) {
	return s.changed(ctx, "adding user", `INSERT INTO connect_users (id, name, admin, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO NOTHING`, u.ID, clean(u.Name), u.Admin, ms(at))
}

func (s *Store) UserAdmin(ctx context.Context, id string) (bool, error) {
	if !storable(id) {
		return false, missing("user")
	}
	var admin bool
	if err := s.pool.QueryRow(ctx, `SELECT admin FROM connect_users WHERE id = $1`, id).Scan(&admin); err != nil {
		return false, notFound(err, "user "+id)
	}
	return admin, nil
}

func (s *Store) Users(ctx context.Context) ([]connect.User, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, name, admin FROM connect_users ORDER BY created_at, id COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("listing users: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (connect.User, error) {
		u := connect.User{Roles: []connect.Role{}}
		return u, r.Scan(&u.ID, &u.Name, &u.Admin)
	})
	if err != nil {
		return nil, fmt.Errorf("listing users: %w", err)
	}
	idx := map[string]int{}
	for i, u := range out {
		idx[u.ID] = i
	}
	rows, err = s.pool.Query(ctx, `SELECT user_id, workspace, project, role FROM connect_roles ORDER BY workspace COLLATE "C", project COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("listing roles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var uid string
		var r connect.Role
		if err := rows.Scan(&uid, &r.Workspace, &r.Project, &r.Role); err != nil {
			return nil, fmt.Errorf("listing roles: %w", err)
		}
		if i, ok := idx[uid]; ok {
			out[i].Roles = append(out[i].Roles, r)
		}
	}
	return out, rows.Err()
}

func (s *Store) SetRole(ctx context.Context, userID string, r connect.Role) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO connect_roles (user_id, workspace, project, role) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id, workspace, project) DO UPDATE SET role = excluded.role`, userID, r.Workspace, r.Project, r.Role)
	if err != nil {
		return fmt.Errorf("setting role: %w", err)
	}
	return nil
}

func (s *Store) DeleteRole(ctx context.Context, userID, workspace, project string) error {
	if !storable(userID, workspace, project) {
		return nil
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM connect_roles WHERE user_id = $1 AND workspace = $2 AND project = $3`,
		userID, workspace, project); err != nil {
		return fmt.Errorf("removing role: %w", err)
	}
	return nil
}

func (s *Store) RoleWorkspaces(ctx context.Context, userID string) ([]string, error) {
	if !storable(userID) {
		return []string{}, nil
	}
	return s.strings(ctx, `SELECT DISTINCT workspace COLLATE "C" FROM connect_roles WHERE user_id = $1 ORDER BY 1`, userID)
}

func (s *Store) InsertSession(ctx context.Context, r connect.SessionRow) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO connect_sessions (hash, user_id, kind, expires_at) VALUES ($1, $2, $3, $4)`,
		r.Hash, r.UserID, r.Kind, ms(r.ExpiresAt)); err != nil {
		return fmt.Errorf("storing a %s: %w", r.Kind, err)
	}
	return nil
}

func (s *Store) Session(ctx context.Context, hash, kind string) (connect.SessionRow, error) {
	r := connect.SessionRow{Hash: hash, Kind: kind}
	err := s.pool.QueryRow(ctx, `SELECT user_id, expires_at FROM connect_sessions WHERE hash = $1 AND kind = $2`, hash, kind).
		Scan(&r.UserID, &r.ExpiresAt)
	if err != nil {
		return r, notFound(err, kind)
	}
	r.ExpiresAt = r.ExpiresAt.UTC()
	return r, nil
}

func (s *Store) TakeSession(ctx context.Context, hash, kind string) (connect.SessionRow, error) {
	r := connect.SessionRow{Hash: hash, Kind: kind}
	err := s.pool.QueryRow(ctx, `DELETE FROM connect_sessions WHERE hash = $1 AND kind = $2 RETURNING user_id, expires_at`, hash, kind).
		Scan(&r.UserID, &r.ExpiresAt)
	if err != nil {
		return r, notFound(err, kind)
	}
	r.ExpiresAt = r.ExpiresAt.UTC()
	return r, nil
}

func (s *Store) InsertActivity(ctx context.Context, a connect.Activity) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO connect_activity (connection_id, tool, decision, detail, at) VALUES ($1, $2, $3, $4, $5)`,
		clean(a.ConnectionID), clean(a.Tool), clean(a.Decision), clean(a.Detail), ms(a.At)); err != nil {
		return fmt.Errorf("recording activity: %w", err)
	}
	return nil
}

func (s *Store) RecentActivity(ctx context.Context, connID string, limit int) ([]connect.Activity, error) {
	if !storable(connID) {
		return []connect.Activity{}, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT connection_id, tool, decision, detail, at FROM connect_activity
		WHERE ($1 = '' OR connection_id = $1) ORDER BY id DESC LIMIT $2`, connID, limit)
	if err != nil {
		return nil, fmt.Errorf("reading activity: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (connect.Activity, error) {
		var a connect.Activity
		err := r.Scan(&a.ConnectionID, &a.Tool, &a.Decision, &a.Detail, &a.At)
		a.At = a.At.UTC()
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("reading activity: %w", err)
	}
	if out == nil {
		out = []connect.Activity{}
	}
	return out, nil
}

// Purge is best effort per table: one that fails is retried next time.
// Every replica may run it at once; the deletes are idempotent.
func (s *Store) Purge(ctx context.Context, p connect.PurgeBefore) error {
	var errs []error
	for _, q := range []struct {
		sql string
		arg time.Time
	}{
		{`DELETE FROM connect_codes WHERE expires_at < $1`, p.Codes},
		{`DELETE FROM connect_auth_requests WHERE expires_at < $1`, p.AuthRequests},
		{`DELETE FROM connect_sessions WHERE expires_at < $1`, p.Sessions},
		{`DELETE FROM connect_tokens WHERE expires_at < $1`, p.Tokens},
		{`DELETE FROM connect_activity WHERE at < $1`, p.Activity},
		{`DELETE FROM connect_clients k WHERE created_at < $1
			AND NOT EXISTS (SELECT 1 FROM connect_connections c WHERE c.client_id = k.id)
			AND NOT EXISTS (SELECT 1 FROM connect_tokens t WHERE t.client_id = k.id)
			AND NOT EXISTS (SELECT 1 FROM connect_codes d WHERE d.client_id = k.id)
			AND NOT EXISTS (SELECT 1 FROM connect_auth_requests a WHERE a.client_id = k.id)`, p.UnusedClients},
	} {
		if _, err := s.pool.Exec(ctx, q.sql, q.arg); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("dropping expired rows: %w", err)
	}
	return nil
}

// TakeBucket locks the bucket's row (creating it when missing, in the same
// step, so two replicas never both create it) from reading to writing.
func (s *Store) TakeBucket(ctx context.Context, key string, update func(connect.Bucket) connect.Bucket) error {
	key = clean(key)
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		var b connect.Bucket
		var at *time.Time
		if err := tx.QueryRow(ctx, `INSERT INTO connect_rate_buckets AS b (key, tokens, at) VALUES ($1, 0, NULL)
			ON CONFLICT (key) DO UPDATE SET tokens = b.tokens RETURNING tokens, at`, key).Scan(&b.Tokens, &at); err != nil {
			return fmt.Errorf("reading the bucket: %w", err)
		}
		b.At = utc(at)
		b = update(b)
		if _, err := tx.Exec(ctx, `UPDATE connect_rate_buckets SET tokens = $2, at = $3 WHERE key = $1`, key, b.Tokens, b.At); err != nil {
			return fmt.Errorf("writing the bucket: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("taking from rate-limit bucket %s: %w", key, err)
	}
	return nil
}

// ForgetBuckets skips rows another replica holds, so it never waits for
// or deadlocks with a TakeBucket.
func (s *Store) ForgetBuckets(ctx context.Context, before time.Time) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM connect_rate_buckets WHERE key IN (
		SELECT key FROM connect_rate_buckets WHERE at < $1 FOR UPDATE SKIP LOCKED)`, before); err != nil {
		return fmt.Errorf("dropping idle rate-limit buckets: %w", err)
	}
	return nil
}
