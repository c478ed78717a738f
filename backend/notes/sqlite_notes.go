package notes

import (
	"context"
	"fmt"
	"time"
)

// sqliteNotes keeps Notes (notes) and their tabs (note_tabs).
type sqliteNotes sqliteTx

var _ NoteRows = sqliteNotes{}

const noteCols = `id, workspace_id, COALESCE(project_id, ''), title, version, updated_at`

func scanNote(sc scanner) (NoteInfo, error) {
	var n NoteInfo
	var upd string
	if err := sc.Scan(&n.ID, &n.Workspace, &n.Project, &n.Title, &n.Version, &upd); err != nil {
		return NoteInfo{}, err
	}
	n.UpdatedAt = parseTime(upd)
	return n, nil
}

func (r sqliteNotes) InsertNote(ctx context.Context, n NoteInfo, now time.Time) error {
	_, err := sqliteTx(r).exec(ctx, `INSERT INTO notes (id, workspace_id, project_id, title, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, n.ID, n.Workspace, nullable(n.Project), n.Title, n.Version, formatTime(now), formatTime(now))
	return err
}

func (r sqliteNotes) Note(ctx context.Context, id string) (NoteInfo, error) {
	n, err := scanNote(r.q.QueryRowContext(ctx, `SELECT `+noteCols+` FROM notes WHERE id = ?`, id))
	return n, rowErr(err, "note "+id)
}

func (r sqliteNotes) Notes(ctx context.Context, workspace, project string) ([]NoteInfo, error) {
	q := `SELECT ` + noteCols + ` FROM notes WHERE workspace_id = ?`
	args := []any{workspace}
	if project != "" {
		q += ` AND project_id = ?`
		args = append(args, project)
	}
	return collect(ctx, r.q, "notes", scanNote, q+` ORDER BY updated_at DESC, id`, args...)
}

func (r sqliteNotes) SetNoteVersionIf(ctx context.Context, id string, expected, next int64, now time.Time) (bool, error) {
	res, err := sqliteTx(r).exec(ctx, `UPDATE notes SET version = ?, updated_at = ? WHERE id = ? AND version = ?`, next, formatTime(now), id, expected)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func scanTabInfo(sc scanner) (TabInfo, error) {
	var t TabInfo
	var upd string
	if err := sc.Scan(&t.ID, &t.Kind, &t.Title, &t.Position, &t.Version, &upd); err != nil {
		return TabInfo{}, err
	}
	t.UpdatedAt = parseTime(upd)
	return t, nil
}

func (r sqliteNotes) Tabs(ctx context.Context, note string) ([]TabInfo, error) {
	return collect(ctx, r.q, "tabs of "+note, scanTabInfo, `SELECT id, kind, title, position, version, updated_at
		FROM note_tabs WHERE note_id = ? ORDER BY position, id`, note)
}

func (r sqliteNotes) TabContents(ctx context.Context, note string) ([]Tab, error) {
	return collect(ctx, r.q, "tabs of "+note, func(sc scanner) (Tab, error) {
		var t Tab
		var upd, data string
		if err := sc.Scan(&t.ID, &t.Kind, &t.Title, &t.Position, &t.Version, &upd, &data); err != nil {
			return Tab{}, err
		}
		t.UpdatedAt = parseTime(upd)
		if err := t.setContent(data); err != nil {
			return Tab{}, fmt.Errorf("decoding tab %s: %w", t.ID, err)
		}
		return t, nil
	}, `SELECT id, kind, title, position, version, updated_at, data FROM note_tabs WHERE note_id = ? ORDER BY position, id`, note)
}

func (r sqliteNotes) TabRow(ctx context.Context, tab string, withData bool) (TabRow, error) {
	// The text of a large tab is only read when the write needs it:
	// replace_text overwrites it whole.
	data := `''`
	if withData {
		data = `t.data`
	}
	var tr TabRow
	var upd string
	err := r.q.QueryRowContext(ctx, `SELECT n.workspace_id, n.version, t.note_id, t.id, t.kind, t.title, t.position, t.version, t.updated_at, `+data+`
		FROM note_tabs t JOIN notes n ON n.id = t.note_id WHERE t.id = ?`, tab).
		Scan(&tr.Workspace, &tr.NoteVersion, &tr.NoteID, &tr.Tab.ID, &tr.Tab.Kind, &tr.Tab.Title, &tr.Tab.Position, &tr.Tab.Version, &upd, &tr.Data)
	tr.Tab.UpdatedAt = parseTime(upd)
	return tr, rowErr(err, "tab "+tab)
}

func (r sqliteNotes) TabStats(ctx context.Context, note string) (count, last int, err error) {
	err = r.q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(MAX(position), -1) FROM note_tabs WHERE note_id = ?`, note).Scan(&count, &last)
	return count, last, rowErr(err, "tabs of "+note)
}

func (r sqliteNotes) InsertTab(ctx context.Context, note string, t TabInfo, data string, now time.Time) error {
	_, err := sqliteTx(r).exec(ctx, `INSERT INTO note_tabs (id, note_id, position, kind, title, data, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, note, t.Position, t.Kind, t.Title, data, t.Version, formatTime(now), formatTime(now))
	return err
}

func (r sqliteNotes) UpdateTab(ctx context.Context, tab, data string, version int64, now time.Time) error {
	res, err := sqliteTx(r).exec(ctx, `UPDATE note_tabs SET data = ?, version = ?, updated_at = ? WHERE id = ?`, data, version, formatTime(now), tab)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("tab %s: %w", tab, ErrNotFound)
	}
	return nil
}
