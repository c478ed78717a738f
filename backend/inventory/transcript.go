package inventory

import (
	"context"
	"fmt"
	"io"
)

// readJSONLPage reads rows from a line-based transcript starting at the
// byte offset cursor. It streams with a bounded line buffer, so a 2 GB file
// costs what the page needs; an over-long line becomes one "skipped" row.
func readJSONLPage(ctx context.Context, path string, cursor int64, limit int, rowsOf func(line []byte) []Row) (Page, error) {
	if limit <= 0 {
		limit = 200
	}
	f, st, err := openRegular(path)
	if err != nil {
		return Page{}, fmt.Errorf("opening transcript: %w", err)
	}
	defer f.Close()
	if cursor < 0 || cursor > st.Size() {
		cursor = 0
	}
	if _, err := f.Seek(cursor, io.SeekStart); err != nil {
		return Page{}, fmt.Errorf("seeking transcript: %w", err)
	}
	lr := newLineReader(f, TranscriptLineCap, cursor)
	p := Page{Rows: []Row{}, Next: cursor}
	for len(p.Rows) < limit {
		if err := ctx.Err(); err != nil {
			return p, err
		}
		line, _, skipped, ok := lr.next()
		if !ok {
			p.Done = true
			break
		}
		p.Next = lr.off
		if skipped > 0 {
			p.Rows = append(p.Rows, Row{Kind: RowSkipped, Text: skippedText(skipped)})
			continue
		}
		if len(line) == 0 || allNUL(line) {
			continue
		}
		p.Rows = append(p.Rows, rowsOf(line)...)
	}
	if !p.Done && p.Next >= st.Size() {
		p.Done = true
	}
	return p, nil
}

func skippedText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("[skipped %.1f GB line]", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("[skipped %d MB line]", n>>20)
	default:
		return fmt.Sprintf("[skipped %d KB line]", n>>10)
	}
}

func allNUL(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// pageSlice serves a page from rows already in memory (database-backed
// stores whose rows are small), with cursor as a row index.
func pageSlice(rows []Row, cursor int64, limit int) Page {
	if limit <= 0 {
		limit = 200
	}
	if cursor < 0 || cursor > int64(len(rows)) {
		cursor = 0
	}
	end := cursor + int64(limit)
	if end > int64(len(rows)) {
		end = int64(len(rows))
	}
	out := append([]Row{}, rows[cursor:end]...)
	return Page{Rows: out, Next: end, Done: end >= int64(len(rows))}
}
