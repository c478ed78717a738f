package notes

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

// The desktop's full-text index (FTS5), one Searcher (searcher.go). The
// index is refreshed lazily when someone searches: Notes and articles whose
// version differs from the indexed stamp, and knowledge-folder Markdown
// files whose (size, mtime) changed, are re-indexed first. Writes never pay
// for indexing, which keeps a guarded edit at a few statements. The team
// server's PostgreSQL store has its own Searcher (pgnotes).

// Kinds of search hits (tools.MemoryHit.Kind).
const (
	HitNote    = "note"
	HitArticle = "knowledge_article"
	HitFile    = "knowledge_file"
)

const maxIndexedFileBytes = 4 << 20

// ftsIndex is SQLite's Searcher: Notes and knowledge articles plus the
// knowledge folder's Markdown files, which every workspace sees.
type ftsIndex struct {
	*sqliteDB
	notes        *Notes
	knowledgeDir string

	mu         sync.Mutex // one lazy reindex at a time
	indexedGen int64      // search_gen when the index last matched the tables (under mu)
}

var _ Searcher = (*ftsIndex)(nil)

// Search implements Searcher over FTS5, bringing the index up to date first.
func (x *ftsIndex) Search(ctx context.Context, scope SearchScope, words []string, all bool, limit int) ([]tools.MemoryHit, error) {
	if err := x.Reindex(ctx); err != nil {
		return nil, err
	}
	where, args := `(workspace = ? OR workspace = '')`, []any{scope.Workspace}
	if scope.KnowledgeBase != "" {
		where, args = `kind = 'knowledge_article' AND container = ?`, []any{scope.KnowledgeBase}
	}
	terms := make([]string, len(words))
	for i, w := range words {
		// Quoted prefix terms: a query's punctuation is never FTS5 syntax.
		terms[i] = `"` + w + `"*`
	}
	join := " OR "
	if all {
		join = " "
	}
	return x.match(ctx, where, args, strings.Join(terms, join), limit)
}

func (x *ftsIndex) match(ctx context.Context, where string, args []any, match string, limit int) ([]tools.MemoryHit, error) {
	rows, err := x.reads.Query(ctx, `SELECT kind, ref, title, snippet(search_fts, -1, '**', '**', '…', 16)
		FROM search_fts WHERE search_fts MATCH ? AND `+where+`
		ORDER BY bm25(search_fts, 0, 0, 0, 0, 5.0, 1.0) LIMIT ?`, append(append([]any{match}, args...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("searching: %w", err)
	}
	defer rows.Close()
	hits := []tools.MemoryHit{}
	for rows.Next() {
		var h tools.MemoryHit
		if err := rows.Scan(&h.Kind, &h.ID, &h.Title, &h.Snippet); err != nil {
			return nil, fmt.Errorf("searching: %w", err)
		}
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("searching: %w", err)
	}
	for i := range hits {
		hits[i].UpdatedAt = x.updatedAt(ctx, hits[i])
	}
	return hits, nil
}

func (x *ftsIndex) updatedAt(ctx context.Context, h tools.MemoryHit) time.Time {
	var v string
	switch h.Kind {
	case HitNote:
		_ = x.reads.QueryRow(ctx, `SELECT updated_at FROM notes WHERE id = ?`, h.ID).Scan(&v)
	case HitArticle:
		_ = x.reads.QueryRow(ctx, `SELECT updated_at FROM knowledge_articles WHERE id = ?`, h.ID).Scan(&v)
	case HitFile:
		if fi, err := os.Stat(filepath.Join(x.knowledgeDir, filepath.FromSlash(h.ID))); err == nil {
			return fi.ModTime().UTC()
		}
	}
	return parseTime(v)
}

// doc is one item to (re)index.
type doc struct {
	kind, ref, workspace, container, stamp, title, body string
}

// Reindex brings the full-text index up to date. Searches call it; the app
// may also call it after a burst of writes.
func (s *ftsIndex) Reindex(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Read the change counter before looking: a change committed while
	// this runs moves it again, so the next search looks again.
	gen, known, err := s.indexState(ctx)
	if err != nil {
		return err
	}
	docs, gone, err := s.staleDocs(ctx, gen != s.indexedGen, known)
	if err != nil {
		return fmt.Errorf("finding changed items to index: %w", err)
	}
	if len(docs) == 0 && len(gone) == 0 {
		s.indexedGen = gen
		return nil
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("indexing: %w", err)
	}
	defer tx.Rollback()
	for _, g := range gone {
		if err := unindex(ctx, tx, g[0], g[1]); err != nil {
			return err
		}
	}
	for _, d := range docs {
		if err := unindex(ctx, tx, d.kind, d.ref); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO search_fts (kind, ref, workspace, container, title, body) VALUES (?, ?, ?, ?, ?, ?)`,
			d.kind, d.ref, d.workspace, d.container, d.title, d.body)
		if err != nil {
			return fmt.Errorf("indexing %s: %w", d.ref, err)
		}
		row, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("indexing %s: %w", d.ref, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO search_state (kind, ref, stamp, fts_row) VALUES (?, ?, ?, ?)`,
			d.kind, d.ref, d.stamp, row); err != nil {
			return fmt.Errorf("indexing %s: %w", d.ref, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("indexing: %w", lockErr(err))
	}
	s.indexedGen = gen
	return nil
}

// unindex removes an item's row, reading its rowid inside the transaction
// so two concurrent indexers (two processes) never orphan a row.
func unindex(ctx context.Context, tx *wtx, kind, ref string) error {
	var row int64
	err := tx.QueryRowContext(ctx, `SELECT fts_row FROM search_state WHERE kind = ? AND ref = ?`, kind, ref).Scan(&row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("unindexing %s: %w", ref, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_fts WHERE rowid = ?`, row); err != nil {
		return fmt.Errorf("unindexing %s: %w", ref, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_state WHERE kind = ? AND ref = ?`, kind, ref); err != nil {
		return fmt.Errorf("unindexing %s: %w", ref, err)
	}
	return nil
}

// staleDocs finds what to (re)index: Notes and articles when checkDB (the
// change counter moved since the last index), and knowledge files always
// (they change on disk, outside the database).
func (s *ftsIndex) staleDocs(ctx context.Context, checkDB bool, known map[string]string) ([]doc, [][2]string, error) {
	if !checkDB {
		return s.staleFiles(ctx, known)
	}
	var docs []doc
	var gone [][2]string
	stale, err := s.stale(ctx, `SELECT n.id FROM notes n LEFT JOIN search_state st ON st.kind = 'note' AND st.ref = n.id
		WHERE st.stamp IS NULL OR st.stamp <> CAST(n.version AS TEXT)`)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range stale {
		n, err := s.notes.GetNote(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		docs = append(docs, doc{kind: HitNote, ref: n.ID, workspace: n.Workspace, container: n.Project,
			stamp: strconv.FormatInt(n.Version, 10), title: n.Title, body: noteText(n)})
	}
	rows, err := s.reads.Query(ctx, `SELECT a.id, b.workspace_id, a.knowledge_base_id, a.version, a.title, a.body
		FROM knowledge_articles a JOIN knowledge_bases b ON b.id = a.knowledge_base_id
		LEFT JOIN search_state st ON st.kind = 'knowledge_article' AND st.ref = a.id
		WHERE st.stamp IS NULL OR st.stamp <> CAST(a.version AS TEXT)`)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		d := doc{kind: HitArticle}
		var v int64
		if err := rows.Scan(&d.ref, &d.workspace, &d.container, &v, &d.title, &d.body); err != nil {
			rows.Close()
			return nil, nil, err
		}
		d.stamp = strconv.FormatInt(v, 10)
		docs = append(docs, d)
	}
	rows.Close()
	for _, q := range [][2]string{
		{HitNote, `SELECT ref FROM search_state st WHERE kind = 'note' AND NOT EXISTS (SELECT 1 FROM notes WHERE id = st.ref)`},
		{HitArticle, `SELECT ref FROM search_state st WHERE kind = 'knowledge_article' AND NOT EXISTS (SELECT 1 FROM knowledge_articles WHERE id = st.ref)`},
	} {
		refs, err := s.stale(ctx, q[1])
		if err != nil {
			return nil, nil, err
		}
		for _, r := range refs {
			gone = append(gone, [2]string{q[0], r})
		}
	}
	fdocs, fgone, err := s.staleFiles(ctx, known)
	if err != nil {
		return nil, nil, err
	}
	return append(docs, fdocs...), append(gone, fgone...), nil
}

func (s *ftsIndex) stale(ctx context.Context, q string) ([]string, error) {
	rows, err := s.reads.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// indexState reads the index's change counter and the indexed knowledge
// files' stamps (ref → size:mtime) in one statement: every search starts
// here, and each statement is a read transaction of its own.
func (s *ftsIndex) indexState(ctx context.Context) (int64, map[string]string, error) {
	rows, err := s.reads.Query(ctx, `SELECT gen, NULL, NULL FROM search_gen WHERE id = 1
		UNION ALL SELECT NULL, ref, stamp FROM search_state WHERE kind = 'knowledge_file'`)
	if err != nil {
		return 0, nil, fmt.Errorf("reading the index's state: %w", err)
	}
	defer rows.Close()
	var gen sql.NullInt64
	known := map[string]string{}
	for rows.Next() {
		var g sql.NullInt64
		var ref, stamp sql.NullString
		if err := rows.Scan(&g, &ref, &stamp); err != nil {
			return 0, nil, fmt.Errorf("reading the index's state: %w", err)
		}
		if g.Valid {
			gen = g
		} else {
			known[ref.String] = stamp.String
		}
	}
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("reading the index's state: %w", err)
	}
	if !gen.Valid {
		return 0, nil, errors.New("reading the index's change counter: the search_gen row is missing")
	}
	return gen.Int64, known, nil
}

// staleFiles compares the knowledge folder's Markdown files with the index
// (known: ref → size:mtime): only new or changed files are read.
func (s *ftsIndex) staleFiles(ctx context.Context, known map[string]string) ([]doc, [][2]string, error) {
	var docs []doc
	seen := map[string]bool{}
	if s.knowledgeDir != "" {
		err := filepath.WalkDir(s.knowledgeDir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == s.knowledgeDir && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipDir
				}
				return nil // an unreadable entry is skipped, not fatal
			}
			if strings.HasPrefix(d.Name(), ".") && p != s.knowledgeDir {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(p))
			if d.IsDir() || !d.Type().IsRegular() || (ext != ".md" && ext != ".markdown") {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(s.knowledgeDir, p)
			rel = filepath.ToSlash(rel)
			seen[rel] = true
			stamp := fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
			if known[rel] == stamp {
				return nil
			}
			body, err := readCapped(p, maxIndexedFileBytes)
			if err != nil {
				return nil
			}
			docs = append(docs, doc{kind: HitFile, ref: rel, stamp: stamp, title: fileTitle(rel, body), body: body})
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("walking knowledge folder %s: %w", s.knowledgeDir, err)
		}
	}
	var gone [][2]string
	for ref := range known {
		if !seen[ref] {
			gone = append(gone, [2]string{HitFile, ref})
		}
	}
	return docs, gone, ctx.Err()
}

func readCapped(path string, max int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max))
	return string(b), err
}

// fileTitle is the first Markdown heading, else the file name.
func fileTitle(rel, body string) string {
	for _, line := range strings.SplitN(body, "\n", 40) {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok && strings.TrimSpace(t) != "" {
			return strings.TrimSpace(t)
		}
	}
	return strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
}

// noteText is everything searchable in a Note: text tabs, slides, sheet
// cells that are strings, and attachment text.
func noteText(n Note) string {
	var b strings.Builder
	for _, t := range n.Tabs {
		b.WriteString(t.Title)
		b.WriteByte('\n')
		switch {
		case t.Text != nil:
			b.WriteString(*t.Text)
		case t.Slides != nil:
			for _, sl := range t.Slides.Slides {
				b.WriteString(sl.Title + "\n" + sl.Body + "\n")
			}
		case t.Sheet != nil:
			for _, sh := range t.Sheet.Sheets {
				for _, row := range sh.Cells {
					for _, c := range row {
						if str, ok := c.(string); ok {
							b.WriteString(str + " ")
						}
					}
					b.WriteByte('\n')
				}
			}
		case t.Attachment != nil:
			b.WriteString(t.Attachment.Name + "\n" + t.Attachment.URL + "\n" + t.Attachment.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
