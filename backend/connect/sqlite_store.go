package connect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// SQLiteStore is Store over the desktop's SQLite file (schema.go). SQLite
// has one writer at a time, so the conditional writes are single
// statements or short transactions. The rate-limit buckets stay in memory:
// the desktop is one process, and a row written per authorize request
// would buy nothing.
type SQLiteStore struct {
	db *sql.DB
	q  hotQueries
	*memBuckets
}

var _ Store = (*SQLiteStore)(nil)

// hotQueries run on every tool call; they are prepared once.
type hotQueries struct {
	access, token, activity *sql.Stmt
}

// OpenSQLite migrates the connect tables in db and returns the store.
func OpenSQLite(ctx context.Context, db *sql.DB) (*SQLiteStore, error) {
	if err := store.Migrate(ctx, db, Component, migrations); err != nil {
		return nil, fmt.Errorf("opening connect store: %w", err)
	}
	s := &SQLiteStore{db: db, memBuckets: newMemBuckets()}
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{{&s.q.access, accessQuery}, {&s.q.token, tokenQuery}, {&s.q.activity, activityInsert}} {
		st, err := db.PrepareContext(ctx, p.sql)
		if err != nil {
			return nil, fmt.Errorf("preparing connect queries: %w", err)
		}
		*p.dst = st
	}
	return s, nil
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("reading %s: %w", what, err)
}

func (s *SQLiteStore) InsertUser(ctx context.Context, u User, at time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `INSERT INTO connect_users (id, name, admin, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`, u.ID, u.Name, b2i(u.Admin), ms(at))
	if err != nil {
		return false, fmt.Errorf("adding user: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *SQLiteStore) UserAdmin(ctx context.Context, id string) (bool, error) {
	var admin bool
	err := s.db.QueryRowContext(ctx, `SELECT admin FROM connect_users WHERE id = ?`, id).Scan(&admin)
	if err != nil {
		return false, notFound(err, "user "+id)
	}
	return admin, nil
}

func (s *SQLiteStore) Users(ctx context.Context) ([]User, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, admin FROM connect_users ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("listing users: %w", err)
	}
	var out []User
	idx := map[string]int{}
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Name, &u.Admin); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing users: %w", err)
		}
		u.Roles = []Role{}
		idx[u.ID] = len(out)
		out = append(out, u)
	}
	rows.Close()
	rows, err = s.db.QueryContext(ctx, `SELECT user_id, workspace, project, role FROM connect_roles ORDER BY workspace, project`)
	if err != nil {
		return nil, fmt.Errorf("listing roles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var uid string
		var r Role
		if err := rows.Scan(&uid, &r.Workspace, &r.Project, &r.Role); err != nil {
			return nil, fmt.Errorf("listing roles: %w", err)
		}
		if i, ok := idx[uid]; ok {
			out[i].Roles = append(out[i].Roles, r)
		}
	}
	return out, rows.Err()
}

func (s *SQLiteStore) SetRole(ctx context.Context, userID string, r Role) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_roles (user_id, workspace, project, role) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, workspace, project) DO UPDATE SET role = excluded.role`, userID, r.Workspace, r.Project, r.Role)
	if err != nil {
		return fmt.Errorf("setting role: %w", err)
	}
	return nil
}

func (s *SQLiteStore) DeleteRole(ctx context.Context, userID, workspace, project string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM connect_roles WHERE user_id = ? AND workspace = ? AND project = ?`,
		userID, workspace, project)
	if err != nil {
		return fmt.Errorf("removing role: %w", err)
	}
	return nil
}

func (s *SQLiteStore) RoleWorkspaces(ctx context.Context, userID string) ([]string, error) {
	return s.strings(ctx, `SELECT DISTINCT workspace FROM connect_roles WHERE user_id = ? ORDER BY workspace`, userID)
}

func (s *SQLiteStore) InsertSession(ctx context.Context, r SessionRow) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO connect_sessions (hash, user_id, kind, expires_at) VALUES (?, ?, ?, ?)`,
		r.Hash, r.UserID, r.Kind, ms(r.ExpiresAt)); err != nil {
		return fmt.Errorf("storing a %s: %w", r.Kind, err)
	}
	return nil
}

func (s *SQLiteStore) Session(ctx context.Context, hash, kind string) (SessionRow, error) {
	r := SessionRow{Hash: hash, Kind: kind}
	var exp int64
	err := s.db.QueryRowContext(ctx, `SELECT user_id, expires_at FROM connect_sessions WHERE hash = ? AND kind = ?`, hash, kind).Scan(&r.UserID, &exp)
	if err != nil {
		return r, notFound(err, kind)
	}
	r.ExpiresAt = fromMS(exp)
	return r, nil
}

func (s *SQLiteStore) TakeSession(ctx context.Context, hash, kind string) (SessionRow, error) {
	r := SessionRow{Hash: hash, Kind: kind}
	var exp int64
	err := s.db.QueryRowContext(ctx, `DELETE FROM connect_sessions WHERE hash = ? AND kind = ? RETURNING user_id, expires_at`, hash, kind).Scan(&r.UserID, &exp)
	if err != nil {
		return r, notFound(err, kind)
	}
	r.ExpiresAt = fromMS(exp)
	return r, nil
}

func (s *SQLiteStore) strings(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("querying connect store: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("querying connect store: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (s *SQLiteStore) execCount(ctx context.Context, doing, q string, args ...any) (bool, error) {
	res, err := s.db.ExecContext(ctx, q, args...)
	if err != nil {
		return false, fmt.Errorf("%s: %w", doing, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("%s: %w", doing, err)
	}
	return n > 0, nil
}

const activityInsert = `INSERT INTO connect_activity (connection_id, tool, decision, detail, at) VALUES (?, ?, ?, ?, ?)`

func (s *SQLiteStore) InsertActivity(ctx context.Context, a Activity) error {
	if _, err := s.q.activity.ExecContext(ctx, a.ConnectionID, a.Tool, a.Decision, a.Detail, ms(a.At)); err != nil {
		return fmt.Errorf("recording activity: %w", err)
	}
	return nil
}

func (s *SQLiteStore) RecentActivity(ctx context.Context, connID string, limit int) ([]Activity, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT connection_id, tool, decision, detail, at FROM connect_activity
		WHERE (? = '' OR connection_id = ?) ORDER BY id DESC LIMIT ?`, connID, connID, limit)
	if err != nil {
		return nil, fmt.Errorf("reading activity: %w", err)
	}
	defer rows.Close()
	out := []Activity{}
	for rows.Next() {
		var a Activity
		var at int64
		if err := rows.Scan(&a.ConnectionID, &a.Tool, &a.Decision, &a.Detail, &at); err != nil {
			return nil, fmt.Errorf("reading activity: %w", err)
		}
		a.At = fromMS(at)
		out = append(out, a)
	}
	return out, rows.Err()
}

// Purge is best effort per table: one that fails is retried next time.
func (s *SQLiteStore) Purge(ctx context.Context, p PurgeBefore) error {
	var errs []error
	for _, q := range []struct {
		sql string
		arg time.Time
	}{
		{`DELETE FROM connect_codes WHERE expires_at < ?`, p.Codes},
		{`DELETE FROM connect_auth_requests WHERE expires_at < ?`, p.AuthRequests},
		{`DELETE FROM connect_sessions WHERE expires_at < ?`, p.Sessions},
		{`DELETE FROM connect_tokens WHERE expires_at < ?`, p.Tokens},
		{`DELETE FROM connect_activity WHERE at < ?`, p.Activity},
		{`DELETE FROM connect_clients WHERE created_at < ?
			AND NOT EXISTS (SELECT 1 FROM connect_connections c WHERE c.client_id = connect_clients.id)
			AND NOT EXISTS (SELECT 1 FROM connect_tokens t WHERE t.client_id = connect_clients.id)
			AND NOT EXISTS (SELECT 1 FROM connect_codes k WHERE k.client_id = connect_clients.id)
			AND NOT EXISTS (SELECT 1 FROM connect_auth_requests a WHERE a.client_id = connect_clients.id)`, p.UnusedClients},
	} {
		if _, err := s.db.ExecContext(ctx, q.sql, ms(q.arg)); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("dropping expired rows: %w", err)
	}
	return nil
}

// memBuckets keeps rate-limit buckets in this process.
type memBuckets struct {
	mu sync.Mutex
	m  map[string]Bucket
}

var _ Buckets = (*memBuckets)(nil)

func newMemBuckets() *memBuckets { return &memBuckets{m: map[string]Bucket{}} }

func (b *memBuckets) TakeBucket(_ context.Context, key string, update func(Bucket) Bucket) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[key] = update(b.m[key])
	return nil
}

func (b *memBuckets) ForgetBuckets(_ context.Context, before time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, v := range b.m {
		if v.At.Before(before) {
			delete(b.m, k)
		}
	}
	return nil
}
