package store

import (
	"context"
	"database/sql"
	"sync"
)

// Stmts caches the prepared statements of one database by their SQL text,
// for queries on a hot path: parsing a statement costs SQLite more than
// running a small one (an allowed memory_search call spent over half its
// time in sqlite3Prepare). database/sql re-prepares a statement on each
// pooled connection that runs it, once.
type Stmts struct {
	db *sql.DB
	m  sync.Map // string → *sql.Stmt
}

// NewStmts returns an empty cache over db; db.Close closes its statements.
func NewStmts(db *sql.DB) *Stmts { return &Stmts{db: db} }

// Get returns the prepared statement for q, preparing it the first time.
func (c *Stmts) Get(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := c.m.Load(q); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if prev, loaded := c.m.LoadOrStore(q, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// Query runs the cached statement q.
func (c *Stmts) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := c.Get(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRow runs the cached statement q for one row; an error preparing it
// comes back from Scan.
func (c *Stmts) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	st, err := c.Get(ctx, q)
	if err != nil {
		return c.db.QueryRowContext(ctx, q, args...) // reports the same error
	}
	return st.QueryRowContext(ctx, args...)
}

// Exec runs the cached statement q.
func (c *Stmts) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	st, err := c.Get(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}
