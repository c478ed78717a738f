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
//
// A call's entry is appended to this process's audit journal first (one
// write: the kernel keeps it when the process is killed) and moved into
// tool_audit by a background writer moments later, so a tool's answer
// never waits on a database commit — that commit was half an allowed
// call's cost in the bridge (osfoundry-bench bridge). A journal left by a
// process that died is imported by the next auditor that opens. Without a
// journal (a database with no folder) each entry is inserted at once.
type SQLAuditor struct {
	db *sql.DB
	// stmts keeps the insert prepared.
	stmts *store.Stmts
	j     *journal
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
CREATE INDEX tool_audit_source ON tool_audit(source);`}, {Version: 2, SQL: `
-- The journal key of an entry that came through a journal: importing a
-- journal twice (killed after its rows were committed) adds nothing.
ALTER TABLE tool_audit ADD COLUMN jkey TEXT;
CREATE UNIQUE INDEX tool_audit_jkey ON tool_audit(jkey) WHERE jkey IS NOT NULL;`}}

// NewSQLAuditor migrates the audit table and returns the auditor.
func NewSQLAuditor(ctx context.Context, db *sql.DB) (*SQLAuditor, error) {
	if err := store.Migrate(ctx, db, "audit", auditMigrations); err != nil {
		return nil, fmt.Errorf("preparing the tool audit: %w", err)
	}
	a := &SQLAuditor{db: db, stmts: store.NewStmts(db)}
	dir, err := journalDir(ctx, db)
	if err != nil || dir == "" {
		return a, err
	}
	if err := a.importJournals(ctx, dir); err != nil {
		return nil, err
	}
	if a.j, err = openJournal(dir, a.insert); err != nil {
		return nil, err
	}
	return a, nil
}

// Close writes what is still pending and removes the journal.
func (a *SQLAuditor) Close() error {
	if a.j == nil {
		return nil
	}
	return a.j.close()
}

const auditTime = "2006-01-02T15:04:05.000000Z07:00"

// Record implements Auditor.
func (a *SQLAuditor) Record(ctx context.Context, e AuditEntry) error {
	e.Args = clipArgs(e.Args)
	if len(e.Args) == 0 {
		e.Args = json.RawMessage("null")
	}
	if a.j != nil {
		err := a.j.append(e)
		if err == nil {
			return nil
		}
		// A journal that cannot be written (a full disk): straight in.
		if ierr := a.insert(ctx, []journalEntry{{AuditEntry: e}}); ierr != nil {
			return fmt.Errorf("recording tool call %s: %w (journal: %v)", e.Tool, ierr, err)
		}
		return nil
	}
	if err := a.insert(ctx, []journalEntry{{AuditEntry: e}}); err != nil {
		return fmt.Errorf("recording tool call %s: %w", e.Tool, err)
	}
	return nil
}

// insert writes entries in one transaction; a journal key already present
// is skipped.
func (a *SQLAuditor) insert(ctx context.Context, es []journalEntry) error {
	st, err := a.stmts.Get(ctx, `INSERT OR IGNORE INTO tool_audit
		(at, workspace, user_id, channel, source, tool, args, decision, detail, duration_us, jkey)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins := tx.StmtContext(ctx, st)
	for _, je := range es {
		var key any
		if je.Key != "" {
			key = je.Key
		}
		e := je.AuditEntry
		if _, err := ins.ExecContext(ctx, e.At.UTC().Format(auditTime), e.Workspace, e.User, e.Channel, e.Source, e.Tool,
			string(e.Args), e.Decision, e.Detail, e.Duration.Microseconds(), key); err != nil {
			return err
		}
	}
	return tx.Commit()
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
	if a.j != nil {
		// This process's own calls are all listed, not only those the
		// background writer has reached.
		if err := a.j.flush(); err != nil {
			return nil, fmt.Errorf("listing the tool audit: %w", err)
		}
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
