package tools

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// Todo is one item of a workspace's to-do list.
type Todo struct {
	ID        int64      `json:"id"`
	Text      string     `json:"text"`
	Done      bool       `json:"done"`
	CreatedAt time.Time  `json:"created_at"`
	DoneAt    *time.Time `json:"done_at,omitempty"`
}

// ErrTodoNotFound is returned when an id names no item of the workspace.
var ErrTodoNotFound = errors.New("no such to-do item in this workspace")

// ErrTodoStatus is returned by List for a status other than open, done, all.
var ErrTodoStatus = errors.New("unknown status; use open, done or all")

// Todos is the per-workspace to-do list (component "todos"). The app adds
// and completes items; models read them through todo_list.
type Todos struct {
	db  *sql.DB
	now func() time.Time
}

var todoMigrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE todos (
	id         INTEGER PRIMARY KEY,
	workspace  TEXT NOT NULL,
	text       TEXT NOT NULL,
	done_at    TEXT,
	created_at TEXT NOT NULL
);
CREATE INDEX todos_workspace ON todos(workspace, done_at);`}}

// NewTodos migrates the todos table and returns the store.
func NewTodos(ctx context.Context, db *sql.DB) (*Todos, error) {
	if err := store.Migrate(ctx, db, "todos", todoMigrations); err != nil {
		return nil, fmt.Errorf("preparing to-dos: %w", err)
	}
	return &Todos{db: db, now: time.Now}, nil
}

const todoTime = time.RFC3339Nano

// Add appends an item.
func (t *Todos) Add(ctx context.Context, workspace, text string) (Todo, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Todo{}, errors.New("adding a to-do: the text is empty; type what needs doing")
	}
	now := t.now().UTC()
	res, err := t.db.ExecContext(ctx, `INSERT INTO todos (workspace, text, created_at) VALUES (?, ?, ?)`,
		workspace, text, now.Format(todoTime))
	if err != nil {
		return Todo{}, fmt.Errorf("adding a to-do: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Todo{}, fmt.Errorf("adding a to-do: %w", err)
	}
	return Todo{ID: id, Text: text, CreatedAt: now}, nil
}

// Complete marks an item done (done=false reopens it).
func (t *Todos) Complete(ctx context.Context, workspace string, id int64, done bool) error {
	var at any
	if done {
		at = t.now().UTC().Format(todoTime)
	}
	res, err := t.db.ExecContext(ctx, `UPDATE todos SET done_at = ? WHERE id = ? AND workspace = ?`, at, id, workspace)
	if err != nil {
		return fmt.Errorf("completing to-do %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("completing to-do %d: %w", id, ErrTodoNotFound)
	}
	return nil
}

// List returns a workspace's items, open ones first, each group oldest
// first. status is "open", "done" or "all" ("" means open).
func (t *Todos) List(ctx context.Context, workspace, status string, limit int) ([]Todo, error) {
	cond := ""
	switch status {
	case "", "open":
		cond = "AND done_at IS NULL"
	case "done":
		cond = "AND done_at IS NOT NULL"
	case "all":
	default:
		return nil, fmt.Errorf("listing to-dos with status %q: %w", status, ErrTodoStatus)
	}
	if limit <= 0 || limit > 500 {
		limit = 500
	}
	rows, err := t.db.QueryContext(ctx, `SELECT id, text, done_at, created_at FROM todos
		WHERE workspace = ? `+cond+` ORDER BY done_at IS NOT NULL, id LIMIT ?`, workspace, limit)
	if err != nil {
		return nil, fmt.Errorf("listing to-dos: %w", err)
	}
	defer rows.Close()
	out := []Todo{}
	for rows.Next() {
		var it Todo
		var doneAt sql.NullString
		var created string
		if err := rows.Scan(&it.ID, &it.Text, &doneAt, &created); err != nil {
			return nil, fmt.Errorf("listing to-dos: %w", err)
		}
		it.CreatedAt, _ = time.Parse(todoTime, created)
		if doneAt.Valid {
			d, _ := time.Parse(todoTime, doneAt.String)
			it.Done, it.DoneAt = true, &d
		}
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing to-dos: %w", err)
	}
	return out, nil
}

// TodoListTool is todo_list over the workspace bound to the call.
func TodoListTool(t *Todos) Tool {
	return Tool{
		Meta: Meta{
			Name:        "todo_list",
			Description: "List the to-do items of the user's workspace (open ones by default).",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"status":{"type":"string","enum":["open","done","all"],"description":"which items; default open"},` +
				`"limit":{"type":"integer","minimum":1,"maximum":500}},"additionalProperties":false}`),
			ReadOnly: true, Scope: ScopeRead, Unattended: true,
		},
		Handler: func(ctx context.Context, c Call) (Result, error) {
			var a struct {
				Status string `json:"status"`
				Limit  int    `json:"limit"`
			}
			if msg := decodeArgs(c.Args, &a); msg != "" {
				return ErrorResult(msg), nil
			}
			items, err := t.List(ctx, c.Workspace, a.Status, a.Limit)
			if err != nil {
				if errors.Is(err, ErrTodoStatus) {
					return ErrorResult(err.Error()), nil
				}
				return Result{}, err
			}
			return JSONResult(map[string]any{"items": items, "count": len(items)}), nil
		},
	}
}

// decodeArgs decodes tool arguments into v and returns a message for the
// model when they do not fit (empty arguments are an empty object).
func decodeArgs(raw json.RawMessage, v any) string {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return ""
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return "invalid arguments: " + err.Error() + "; send a JSON object matching the tool's input schema"
	}
	return ""
}
