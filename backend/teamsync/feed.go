package teamsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/tools"
)

// Change is one change of a workspace.
type Change struct {
	Kind    string `json:"kind"` // note, project, kb, article, rchannel, record, post
	ID      string `json:"id"`
	Project string `json:"project_id"`
	Deleted bool   `json:"deleted"`
}

// Feed is a page of changes after a cursor, with the current state of
// what they name: the newest content of each Note and project still there.
type Feed struct {
	// Cursor is what to ask after next time ("<xid>.<seq>" of the last
	// change read; the one asked after when there was none).
	Cursor string `json:"cursor"`
	More   bool   `json:"more"`
	// Held says changes after the cursor are committed but not readable
	// yet: an older transaction still runs. Ask again in a moment.
	Held           bool                  `json:"held"`
	Changes        []Change              `json:"changes"`
	Notes          []notes.Note          `json:"notes"`
	Projects       []notes.Project       `json:"projects"`
	KnowledgeBases []notes.KnowledgeBase `json:"knowledge_bases"`
	Articles       []notes.ArticleDoc    `json:"articles"`
	RecordChannels []notes.RecordBoard   `json:"record_channels"`
	Records        []notes.RecordItem    `json:"records"`
	Posts          []ProjectPost         `json:"posts"`
	// Channels are new shared channels of synced projects (not their
	// discussion, which every desktop has).
	Channels []messages.Channel `json:"channels"`
}

// maxPage is the most changes one pull returns.
const maxPage = 500

// cursor is a place in a workspace's changes: after (xid, seq).
type cursor struct {
	xid uint64
	seq int64
}

func (c cursor) String() string { return fmt.Sprintf("%d.%d", c.xid, c.seq) }

func parseCursor(v string) (cursor, error) {
	if v == "" || v == "0" {
		return cursor{}, nil
	}
	x, q, ok := strings.Cut(v, ".")
	xid, err1 := strconv.ParseUint(x, 10, 64)
	seq, err2 := strconv.ParseInt(q, 10, 64)
	if !ok || err1 != nil || err2 != nil || seq < 0 {
		return cursor{}, badInput("after is the cursor of the last pull (\"<xid>.<seq>\"), or empty for the start")
	}
	return cursor{xid, seq}, nil
}

// now is the cursor before any change not yet finished: what a snapshot
// read after it already reflects, every later change comes after it.
func (s *Service) now(ctx context.Context) (cursor, error) {
	var xid uint64
	if err := s.cfg.Pool.QueryRow(ctx, `SELECT pg_snapshot_xmin(pg_current_snapshot())::text::numeric`).Scan(&xid); err != nil {
		return cursor{}, fmt.Errorf("reading the change horizon: %w", err)
	}
	return cursor{xid: xid}, nil
}

// Changes is the page of ws's changes after after, for a member. Only
// changes of transactions older than every one still running are read:
// one still running may commit a change that sorts before a newer one.
func (s *Service) Changes(ctx context.Context, personID, ws string, after cursor, limit int) (Feed, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Read); err != nil {
		return Feed{}, err
	}
	f, err := s.read(ctx, ws, after, limit)
	if err != nil {
		return f, err
	}
	return f, s.fill(ctx, ws, &f)
}

// read is the page of changes after after, without what they name.
func (s *Service) read(ctx context.Context, ws string, after cursor, limit int) (Feed, error) {
	if limit <= 0 || limit > maxPage {
		limit = maxPage
	}
	rows, err := s.cfg.Pool.Query(ctx, `SELECT c.xid::text::numeric, c.seq, c.kind, c.item_id, c.project_id, c.deleted
		FROM sync_changes c
		WHERE c.workspace_id = $1 AND (c.xid, c.seq) > ($2::text::xid8, $3::bigint)
			AND c.xid < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY c.xid, c.seq LIMIT $4`, ws, strconv.FormatUint(after.xid, 10), after.seq, limit+1)
	if err != nil {
		return Feed{}, fmt.Errorf("reading changes: %w", err)
	}
	var at []cursor
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Change, error) {
		var c Change
		var p cursor
		err := r.Scan(&p.xid, &p.seq, &c.Kind, &c.ID, &c.Project, &c.Deleted)
		at = append(at, p)
		return c, err
	})
	if err != nil {
		return Feed{}, fmt.Errorf("reading changes: %w", err)
	}
	f := Feed{Cursor: after.String(), Changes: cs, Notes: []notes.Note{}, Projects: []notes.Project{},
		KnowledgeBases: []notes.KnowledgeBase{}, Articles: []notes.ArticleDoc{},
		RecordChannels: []notes.RecordBoard{}, Records: []notes.RecordItem{}, Posts: []ProjectPost{}, Channels: []messages.Channel{}}
	if len(cs) > limit {
		f.Changes, f.More = cs[:limit], true
	}
	if n := len(f.Changes); n > 0 {
		f.Cursor = at[n-1].String()
	}
	if f.Changes == nil {
		f.Changes = []Change{}
	}
	if !f.More {
		last, _ := parseCursor(f.Cursor)
		if err := s.cfg.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sync_changes c
			WHERE c.workspace_id = $1 AND (c.xid, c.seq) > ($2::text::xid8, $3::bigint)
				AND c.xid >= pg_snapshot_xmin(pg_current_snapshot()))`,
			ws, strconv.FormatUint(last.xid, 10), last.seq).Scan(&f.Held); err != nil {
			return Feed{}, fmt.Errorf("reading changes: %w", err)
		}
	}
	return f, nil
}

// fill adds the current state of each Note and project the page names,
// once each; what was deleted since is left out (its change says so).
func (s *Service) fill(ctx context.Context, ws string, f *Feed) error {
	seen := map[string]bool{}
	for _, c := range f.Changes {
		if c.Deleted || seen[c.Kind+"/"+c.ID] {
			continue
		}
		seen[c.Kind+"/"+c.ID] = true
		switch c.Kind {
		case "note":
			n, err := s.cfg.Notes.GetNote(ctx, c.ID)
			if errors.Is(err, notes.ErrNotFound) || (err == nil && n.Workspace != ws) {
				continue
			}
			if err != nil {
				return fmt.Errorf("reading note %s: %w", c.ID, err)
			}
			f.Notes = append(f.Notes, n)
		case "project":
			p, err := s.cfg.Notes.GetProject(ctx, c.ID)
			if errors.Is(err, notes.ErrNotFound) || (err == nil && p.Workspace != ws) {
				continue
			}
			if err != nil {
				return fmt.Errorf("reading project %s: %w", c.ID, err)
			}
			f.Projects = append(f.Projects, p)
		case "kb", "article":
			if err := s.fillKnowledge(ctx, ws, c, f); err != nil {
				return err
			}
		case "rchannel", "record":
			if err := s.fillRecords(ctx, ws, c, f); err != nil {
				return err
			}
		case "post":
			if err := s.fillPost(ctx, ws, c, f); err != nil {
				return err
			}
		case "channel":
			if err := s.fillChannel(ctx, ws, c, f); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Service) changes(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	q := r.URL.Query()
	after, err := parseCursor(q.Get("after"))
	if err != nil {
		return nil, err
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	return s.Changes(r.Context(), p.ID, r.PathValue("ws"), after, limit)
}

// NewNote is a Note a desktop created in a synced project.
type NewNote struct {
	ID      string `json:"note_id"`
	TabID   string `json:"tab_id"` // the first tab's id on the desktop
	Project string `json:"project_id"`
	Title   string `json:"title"`
	Text    string `json:"text"`
}

// CreateNote stores a Note a desktop created, under the id the desktop
// gave it. Sent again (the desktop did not hear the answer), it answers
// the Note as it is.
func (s *Service) CreateNote(ctx context.Context, personID, ws string, in NewNote) (notes.Note, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return notes.Note{}, err
	}
	if !goodID(in.ID, "note") || !goodID(in.TabID, "tab") {
		return notes.Note{}, badInput("note_id and tab_id are the desktop's ids of the Note and its first tab (note-…, tab-…)")
	}
	p, err := s.cfg.Notes.GetProject(ctx, in.Project)
	if errors.Is(err, notes.ErrNotFound) || (err == nil && p.Workspace != ws) {
		return notes.Note{}, teamauth.Refuse(http.StatusNotFound, "no project %q in this workspace: is the project still synced?", in.Project)
	}
	if err != nil {
		return notes.Note{}, fmt.Errorf("reading the project: %w", err)
	}
	if have, err := s.cfg.Notes.GetNote(ctx, in.ID); err == nil {
		if have.Workspace != ws || have.Project != in.Project {
			return notes.Note{}, teamauth.Refuse(http.StatusConflict, "note %s already exists elsewhere", in.ID)
		}
		return have, nil
	}
	n, err := s.cfg.Notes.CreateNote(ctx, notes.NewNote{ID: in.ID, TabID: in.TabID, Workspace: ws, Project: in.Project, Title: in.Title, Text: in.Text})
	if errors.Is(err, notes.ErrInvalid) {
		return n, badInput("%v", err)
	}
	if err != nil {
		// Two sends of the same create may race: the second finds the first.
		if have, gerr := s.cfg.Notes.GetNote(ctx, in.ID); gerr == nil && have.Workspace == ws {
			return have, nil
		}
		return n, fmt.Errorf("creating the note: %w", err)
	}
	return n, nil
}

func (s *Service) createNote(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in NewNote
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.CreateNote(r.Context(), p.ID, r.PathValue("ws"), in)
}

// Edit is a desktop's write of a text tab, as edit_note_tab takes it.
type Edit struct {
	ExpectedVersion int64  `json:"expected_version"`
	IdempotencyKey  string `json:"idempotency_key"`
	Text            string `json:"text"`
}

// Conflict is the answer to an edit that lost the race (HTTP 409): the
// Note as it is now, for the desktop's compare / re-apply view.
type Conflict struct {
	Error string     `json:"error"` // version_conflict
	Note  notes.Note `json:"note"`
}

// HTTPStatus makes teamauth answer a Conflict with 409.
func (Conflict) HTTPStatus() int { return http.StatusConflict }

// EditTab writes a text tab through edit_note_tab, the tool assistants
// use, with the desktop's person as the writer: the same version rule and
// idempotency key, so a resent edit is applied once.
func (s *Service) EditTab(ctx context.Context, personID, ws, noteID, tabID string, e Edit) (any, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return nil, err
	}
	t, ok := s.cfg.Notes.Tool(notes.ToolEditNoteTab)
	if !ok {
		return nil, errors.New("the notes store has no edit_note_tab")
	}
	args, _ := json.Marshal(map[string]any{"note_id": noteID, "tab_id": tabID, "expected_version": e.ExpectedVersion,
		"idempotency_key": e.IdempotencyKey, "operation": "replace_text", "text": e.Text})
	res, err := t.Handler(ctx, tools.Call{Workspace: ws, User: personID, Tool: notes.ToolEditNoteTab, Args: args, Source: "desktop-sync"})
	if err != nil {
		return nil, fmt.Errorf("editing the note: %w", err)
	}
	if res.IsError {
		var v struct {
			Error string `json:"error"`
		}
		if json.Unmarshal([]byte(res.Text), &v) == nil && v.Error == "version_conflict" {
			n, err := s.cfg.Notes.GetNote(ctx, noteID)
			if err != nil {
				return nil, fmt.Errorf("reading the note after a conflict: %w", err)
			}
			return Conflict{Error: "version_conflict", Note: n}, nil
		}
		if strings.HasPrefix(res.Text, "not_found") {
			return nil, teamauth.Refuse(http.StatusNotFound, "%s", res.Text)
		}
		return nil, badInput("%s", res.Text)
	}
	// The version this edit wrote, not the Note as read afterwards: a
	// teammate's edit committed in between must still reach this desktop.
	var w Written
	if err := json.Unmarshal([]byte(res.Text), &w); err != nil || w.Version == 0 {
		return nil, fmt.Errorf("reading edit_note_tab's answer %q: %v", res.Text, err)
	}
	return w, nil
}

// Written is the answer to an edit that was taken: the version of the
// Note it made (a resent edit answers the first one's).
type Written struct {
	NoteID     string `json:"note_id"`
	TabID      string `json:"tab_id"`
	Version    int64  `json:"version"`
	TabVersion int64  `json:"tab_version"`
}

func (s *Service) editTab(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var e Edit
	if err := teamauth.ReadJSON(r, &e); err != nil {
		return nil, err
	}
	return s.EditTab(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("note"), r.PathValue("tab"), e)
}

// goodID is an id a desktop made: prefix-…, short, one plain word.
func goodID(id, prefix string) bool {
	rest, ok := strings.CutPrefix(id, prefix+"-")
	if !ok || rest == "" || len(id) > 100 {
		return false
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
