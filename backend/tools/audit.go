package tools

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// AuditEntry records one tool call and what the gate decided.
type AuditEntry struct {
	ID        int64           `json:"id"`
	At        time.Time       `json:"at"`
	Workspace string          `json:"workspace"`
	User      string          `json:"user"`
	Channel   string          `json:"channel"`
	Source    string          `json:"source"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	Decision  string          `json:"decision"` // one of the Decision* constants
	Detail    string          `json:"detail,omitempty"`
	Duration  time.Duration   `json:"duration"`
}

// Auditor stores audit entries. Record must be safe for concurrent use.
type Auditor interface {
	Record(ctx context.Context, e AuditEntry) error
}

// maxAuditArgs bounds the arguments kept per entry: a model can send
// megabytes, the audit needs enough to see what was asked.
const maxAuditArgs = 16 << 10

func clipArgs(a json.RawMessage) json.RawMessage {
	if len(a) <= maxAuditArgs {
		return a
	}
	// Keep it valid JSON so readers can always decode the column.
	b, _ := json.Marshal(map[string]any{"truncated": true, "bytes": len(a), "head": string(a[:maxAuditArgs])})
	return b
}

type nopAuditor struct{}

func (nopAuditor) Record(context.Context, AuditEntry) error { return nil }

// MemoryAuditor keeps entries in memory (tests, the headless bench).
type MemoryAuditor struct {
	mu      sync.Mutex
	entries []AuditEntry
}

var _ Auditor = (*MemoryAuditor)(nil)

// Record implements Auditor.
func (m *MemoryAuditor) Record(_ context.Context, e AuditEntry) error {
	e.Args = clipArgs(e.Args)
	m.mu.Lock()
	defer m.mu.Unlock()
	e.ID = int64(len(m.entries) + 1)
	m.entries = append(m.entries, e)
	return nil
}

// Entries returns a copy of everything recorded, oldest first.
func (m *MemoryAuditor) Entries() []AuditEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]AuditEntry(nil), m.entries...)
}

// SQLAuditor stores entries in the app database (component "audit").
type SQLAuditor struct {
	db *sql.DB
	// stmts keeps the insert prepared: every tool call writes one row.
	stmts *store.Stmts
}

var _ Auditor = (*SQLAuditor)(nil)

var auditMigrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE tool_audit (
	id          INTEGER PRIMARY KEY,
	at          TEXT NOT NULL,
	workspace   TEXT NOT NULL,
	user_id     TEXT NOT NULL,
	channel     TEXT NOT NULL,
	source      TEXT NOT NULL,
	tool        TEXT NOT NULL,
	args        TEXT NOT NULL,
	decision    TEXT NOT NULL,
	detail      TEXT NOT NULL,
	duration_us INTEGER NOT NULL
);
CREATE INDEX tool_audit_workspace_at ON tool_audit(workspace, at);
CREATE INDEX tool_audit_source ON tool_audit(source);`}}

// NewSQLAuditor migrates the audit table and returns the auditor.
func NewSQLAuditor(ctx context.Context, db *sql.DB) (*SQLAuditor, error) {
	if err := store.Migrate(ctx, db, "audit", auditMigrations); err != nil {
		return nil, fmt.Errorf("preparing the tool audit: %w", err)
	}
	return &SQLAuditor{db: db, stmts: store.NewStmts(db)}, nil
}

const auditTime = "2006-01-02T15:04:05.000000Z07:00"

// Record implements Auditor.
func (a *SQLAuditor) Record(ctx context.Context, e AuditEntry) error {
	args := clipArgs(e.Args)
	if len(args) == 0 {
		args = json.RawMessage("null")
	}
	_, err := a.stmts.Exec(ctx, `INSERT INTO tool_audit
		(at, workspace, user_id, channel, source, tool, args, decision, detail, duration_us)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.At.UTC().Format(auditTime), e.Workspace, e.User, e.Channel, e.Source, e.Tool,
		string(args), e.Decision, e.Detail, e.Duration.Microseconds())
	if err != nil {
		return fmt.Errorf("recording tool call %s: %w", e.Tool, err)
	}
	return nil
}

// AuditQuery filters List. Empty fields match everything.
type AuditQuery struct {
	Workspace string
	Source    string
	Tool      string
	Limit     int // newest first; 0 means 100
}

// List returns entries, newest first.
func (a *SQLAuditor) List(ctx context.Context, q AuditQuery) ([]AuditEntry, error) {
	if q.Limit <= 0 {
		q.Limit = 100
	}
	rows, err := a.db.QueryContext(ctx, `SELECT id, at, workspace, user_id, channel, source, tool, args, decision, detail, duration_us
		FROM tool_audit
		WHERE (?1 = '' OR workspace = ?1) AND (?2 = '' OR source = ?2) AND (?3 = '' OR tool = ?3)
		ORDER BY id DESC LIMIT ?4`, q.Workspace, q.Source, q.Tool, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("listing the tool audit: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at, args string
		var us int64
		if err := rows.Scan(&e.ID, &at, &e.Workspace, &e.User, &e.Channel, &e.Source, &e.Tool, &args, &e.Decision, &e.Detail, &us); err != nil {
			return nil, fmt.Errorf("reading the tool audit: %w", err)
		}
		e.At, _ = time.Parse(auditTime, at)
		e.Args = json.RawMessage(args)
		e.Duration = time.Duration(us) * time.Microsecond
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the tool audit: %w", err)
	}
	return out, nil
}
