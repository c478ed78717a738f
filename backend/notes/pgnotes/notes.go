package pgnotes

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/notes"
)

// pgNotes keeps Notes and their tabs. Every change marks the Note for
// its full-text document (search.go).
type pgNotes pgTx

var _ notes.NoteRows = pgNotes{}

const noteCols = `id, workspace_id, COALESCE(project_id, ''), title, version, updated_at`

func scanNote(sc pgx.Row) (notes.NoteInfo, error) {
	var n notes.NoteInfo
	var upd string
	if err := sc.Scan(&n.ID, &n.Workspace, &n.Project, &n.Title, &n.Version, &upd); err != nil {
		return notes.NoteInfo{}, err
	}
	n.UpdatedAt = notes.ParseStoredTime(upd)
	return n, nil
}

func (r pgNotes) InsertNote(ctx context.Context, n notes.NoteInfo, now time.Time) error {
	if _, err := pgTx(r).exec(ctx, "creating note "+n.ID, `INSERT INTO notes (id, workspace_id, project_id, title, version, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6)`, n.ID, n.Workspace, nullable(n.Project), n.Title, n.Version, stored(now)); err != nil {
		return err
	}
	return pgTx(r).noteChanged(ctx, n.ID)
}

func (r pgNotes) Note(ctx context.Context, id string) (notes.NoteInfo, error) {
	var n notes.NoteInfo
	var upd string
	err := pgTx(r).row(ctx, "note "+id, []any{&n.ID, &n.Workspace, &n.Project, &n.Title, &n.Version, &upd},
		`SELECT `+noteCols+` FROM notes WHERE id = $1`+pgTx(r).locked(), id)
	n.UpdatedAt = notes.ParseStoredTime(upd)
	return n, err
}

func (r pgNotes) Notes(ctx context.Context, workspace, project string) ([]notes.NoteInfo, error) {
	q := `SELECT ` + noteCols + ` FROM notes WHERE workspace_id = $1`
	args := []any{workspace}
	if project != "" {
		q += ` AND project_id = $2`
		args = append(args, project)
	}
	return collect(ctx, pgTx(r), "notes", scanNote, q+` ORDER BY updated_at DESC, id`, args...)
}

func (r pgNotes) SetNoteVersionIf(ctx context.Context, id string, expected, next int64, now time.Time) (bool, error) {
	ok, err := pgTx(r).ifVersion(ctx, "bumping note "+id, `UPDATE notes SET version = $1, updated_at = $2 WHERE id = $3 AND version = $4`,
		next, stored(now), id, expected)
	if !ok || err != nil {
		return ok, err
	}
	return true, pgTx(r).noteChanged(ctx, id)
}

func scanTabInfo(sc pgx.Row) (notes.TabInfo, error) {
	var t notes.TabInfo
	var upd string
	if err := sc.Scan(&t.ID, &t.Kind, &t.Title, &t.Position, &t.Version, &upd); err != nil {
		return notes.TabInfo{}, err
	}
	t.UpdatedAt = notes.ParseStoredTime(upd)
	return t, nil
}

func (r pgNotes) Tabs(ctx context.Context, note string) ([]notes.TabInfo, error) {
	return collect(ctx, pgTx(r), "tabs of "+note, scanTabInfo, `SELECT id, kind, title, position, version, updated_at
		FROM note_tabs WHERE note_id = $1 ORDER BY position, id`, note)
}

func (r pgNotes) TabContents(ctx context.Context, note string) ([]notes.Tab, error) {
	return collect(ctx, pgTx(r), "tabs of "+note, scanTab,
		`SELECT id, kind, title, position, version, updated_at, data FROM note_tabs WHERE note_id = $1 ORDER BY position, id`, note)
}

func scanTab(sc pgx.Row) (notes.Tab, error) {
	var info notes.TabInfo
	var upd, data string
	if err := sc.Scan(&info.ID, &info.Kind, &info.Title, &info.Position, &info.Version, &upd, &data); err != nil {
		return notes.Tab{}, err
	}
	info.UpdatedAt = notes.ParseStoredTime(upd)
	return notes.DecodeTab(info, data)
}

func (r pgNotes) TabRow(ctx context.Context, tab string, withData bool) (notes.TabRow, error) {
	// The text of a large tab is only read when the write needs it.
	data := `''`
	if withData {
		data = `t.data`
	}
	var tr notes.TabRow
	var upd string
	err := pgTx(r).row(ctx, "tab "+tab,
		[]any{&tr.Workspace, &tr.NoteVersion, &tr.NoteID, &tr.Tab.ID, &tr.Tab.Kind, &tr.Tab.Title, &tr.Tab.Position, &tr.Tab.Version, &upd, &tr.Data},
		`SELECT n.workspace_id, n.version, t.note_id, t.id, t.kind, t.title, t.position, t.version, t.updated_at, `+data+`
		FROM note_tabs t JOIN notes n ON n.id = t.note_id WHERE t.id = $1`+pgTx(r).locked(), tab)
	tr.Tab.UpdatedAt = notes.ParseStoredTime(upd)
	return tr, err
}

func (r pgNotes) TabStats(ctx context.Context, note string) (count, last int, err error) {
	err = pgTx(r).row(ctx, "tabs of "+note, []any{&count, &last},
		`SELECT COUNT(*), COALESCE(MAX(position), -1) FROM note_tabs WHERE note_id = $1`, note)
	return count, last, err
}

func (r pgNotes) InsertTab(ctx context.Context, note string, t notes.TabInfo, data string, now time.Time) error {
	if _, err := pgTx(r).exec(ctx, "adding tab "+t.ID, `INSERT INTO note_tabs (id, note_id, position, kind, title, data, version, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`, t.ID, note, t.Position, t.Kind, t.Title, data, t.Version, stored(now)); err != nil {
		return err
	}
	return pgTx(r).noteChanged(ctx, note)
}

func (r pgNotes) UpdateTab(ctx context.Context, tab, data string, version int64, now time.Time) error {
	if err := storeText("saving tab "+tab, data); err != nil {
		return err
	}
	var note string
	err := pgTx(r).row(ctx, "tab "+tab, []any{&note},
		`UPDATE note_tabs SET data = $1, version = $2, updated_at = $3 WHERE id = $4 RETURNING note_id`, data, version, stored(now), tab)
	if err != nil {
		return err
	}
	return pgTx(r).noteChanged(ctx, note)
}
