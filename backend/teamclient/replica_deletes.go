package teamclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/osfoundry/desktop/backend/notes"
)

// Deletes of synced knowledge bases, articles and Records travel like
// their edits. What waits to go up is found, not queued: an item the
// server had (a team_sync_items row) that is gone here was deleted here,
// so a delete made offline waits across restarts until the server is
// back. The server deletes only what is still as this desktop last had
// it; one edited since by a teammate comes back here with the edit, and
// the window is told (EventKeptAfterDelete). The other way round, an item
// a teammate deleted that the person edited here is kept and goes up
// again as theirs, and the window is told too: a delete never silently
// loses an edit on either side.

// EventKeptAfterDelete carries a KeptAfterDelete to the window.
const EventKeptAfterDelete = "team:kept-after-delete"

// KeptAfterDelete says a delete met an edit and the edited copy stayed.
type KeptAfterDelete struct {
	Kind      string `json:"kind"` // kb, article, record
	ID        string `json:"id"`
	Container string `json:"containerId"` // the article's base, the Record's channel, the base's project
	Title     string `json:"title"`
	// Why is what happened, as the window says it.
	Why string `json:"why"`
}

// waitingDelete is a synced item gone here that the server still has.
type waitingDelete struct {
	kind, id, container string
	server              int64
}

// deletesWaiting lists what was deleted here and not yet on the server:
// knowledge bases first, then articles of bases still here, then Records.
func (r *Replica) deletesWaiting(ctx context.Context) ([]waitingDelete, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT i.kind, i.item_id, i.container, i.server_version FROM team_sync_items i
		WHERE i.server_version > 0 AND (
			(i.kind = 'kb' AND NOT EXISTS (SELECT 1 FROM knowledge_bases b WHERE b.id = i.item_id))
			OR (i.kind = 'article' AND NOT EXISTS (SELECT 1 FROM knowledge_articles a WHERE a.id = i.item_id)
				AND EXISTS (SELECT 1 FROM knowledge_bases b WHERE b.id = i.container))
			OR (i.kind = 'record' AND NOT EXISTS (SELECT 1 FROM record_items x WHERE x.id = i.item_id)
				AND EXISTS (SELECT 1 FROM record_channels c WHERE c.id = i.container)))
		ORDER BY CASE i.kind WHEN 'kb' THEN 0 WHEN 'article' THEN 1 ELSE 2 END, i.item_id`)
	if err != nil {
		return nil, fmt.Errorf("reading the deletes waiting for the team server: %w", err)
	}
	defer rows.Close()
	var out []waitingDelete
	for rows.Next() {
		var d waitingDelete
		if err := rows.Scan(&d.kind, &d.id, &d.container, &d.server); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// deletesPending counts a project's deletes waiting for the server.
func (r *Replica) deletesPending(ctx context.Context, project string) (int, error) {
	ds, err := r.deletesWaiting(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range ds {
		p := d.container
		if d.kind != "kb" {
			c, err := r.item(ctx, map[string]string{"article": "kb", "record": "rchannel"}[d.kind], d.container)
			if err != nil {
				return 0, err
			}
			p = c.container
		}
		if p == project {
			n++
		}
	}
	return n, nil
}

// pushDeletes sends the deletes made here, in order.
func (r *Replica) pushDeletes(ctx context.Context) error {
	ds, err := r.deletesWaiting(ctx)
	if err != nil {
		return err
	}
	for _, d := range ds {
		var err error
		switch d.kind {
		case "kb":
			err = r.deleteKB(ctx, d)
		case "article":
			err = r.deleteArticle(ctx, d)
		case "record":
			err = r.deleteRecord(ctx, d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// workspaceOfItem is the team workspace an item goes to, through its
// container ("" when its project no longer syncs).
func (r *Replica) workspaceOfItem(ctx context.Context, d waitingDelete) (string, error) {
	project := d.container
	if d.kind != "kb" {
		c, err := r.item(ctx, map[string]string{"article": "kb", "record": "rchannel"}[d.kind], d.container)
		if err != nil {
			return "", err
		}
		project = c.container
	}
	p, err := r.projectOf(ctx, project)
	return p.workspace, err
}

func (r *Replica) forgetItems(ctx context.Context, where string, args ...any) error {
	if _, err := r.db.ExecContext(ctx, `DELETE FROM team_sync_items WHERE `+where, args...); err != nil {
		return fmt.Errorf("forgetting the synced copy: %w", err)
	}
	return nil
}

// sendDelete sends one delete; a refusal other than a lost race is kept
// beside the item (Settings → Team shows it) and the delete is not sent
// again.
func (r *Replica) sendDelete(ctx context.Context, d waitingDelete, path string, body, out any) (int, bool, error) {
	ws, err := r.workspaceOfItem(ctx, d)
	if err != nil {
		return 0, false, err
	}
	if ws == "" {
		// Its project is Local-only now: nothing goes to the server.
		return 0, false, r.forgetItems(ctx, `kind = ? AND item_id = ?`, d.kind, d.id)
	}
	code, err := r.c.Call(ctx, http.MethodDelete, "/api/sync/"+url.PathEscape(ws)+path, body, out)
	var refused *APIError
	if errors.As(err, &refused) {
		_, err := r.db.ExecContext(ctx, `UPDATE team_sync_items SET problem = ?, server_version = 0 WHERE kind = ? AND item_id = ?`,
			"deleting: "+refused.Message, d.kind, d.id)
		return code, false, err
	}
	return code, err == nil, err
}

func (r *Replica) deleteKB(ctx context.Context, d waitingDelete) error {
	known := map[string]int64{}
	rows, err := r.db.QueryContext(ctx, `SELECT item_id, server_version FROM team_sync_items WHERE kind = 'article' AND container = ? AND server_version > 0`, d.id)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		var v int64
		if err := rows.Scan(&id, &v); err != nil {
			rows.Close()
			return err
		}
		known[id] = v
	}
	rows.Close()
	var ans struct {
		Error    string              `json:"error"`
		KB       notes.KnowledgeBase `json:"knowledge_base"`
		Articles []notes.ArticleDoc  `json:"articles"`
	}
	code, ok, err := r.sendDelete(ctx, d, "/kbs/"+url.PathEscape(d.id), map[string]any{"articles": known}, &ans)
	if err != nil || !ok {
		return err
	}
	if err := r.forgetItems(ctx, `(kind = 'kb' AND item_id = ?) OR (kind = 'article' AND container = ?)`, d.id, d.id); err != nil {
		return err
	}
	if code != http.StatusConflict {
		return nil
	}
	// Edited on the server since: the base comes back with what it holds.
	p, err := r.projectOf(ctx, ans.KB.Project)
	if err != nil {
		return err
	}
	if err := r.takeKB(ctx, p.local, ans.KB); err != nil {
		return err
	}
	for _, a := range ans.Articles {
		if err := r.takeArticle(ctx, d.id, a, 0); err != nil {
			return err
		}
	}
	r.c.o.Emit.Emit(EventKeptAfterDelete, KeptAfterDelete{Kind: "kb", ID: d.id, Container: ans.KB.Project, Title: ans.KB.Name,
		Why: "Knowledge base “" + ans.KB.Name + "” was changed on the team since you deleted it, so it was not deleted: it is back with the changes."})
	return nil
}

func (r *Replica) deleteArticle(ctx context.Context, d waitingDelete) error {
	var ans articleAnswer
	code, ok, err := r.sendDelete(ctx, d, "/kbs/"+url.PathEscape(d.container)+"/articles/"+url.PathEscape(d.id),
		map[string]any{"expected_version": d.server}, &ans)
	if err != nil || !ok {
		return err
	}
	if err := r.forgetItems(ctx, `kind = 'article' AND item_id = ?`, d.id); err != nil {
		return err
	}
	if code != http.StatusConflict {
		return nil
	}
	if err := r.takeArticle(ctx, d.container, ans.Now, 0); err != nil {
		return err
	}
	r.c.o.Emit.Emit(EventKeptAfterDelete, KeptAfterDelete{Kind: "article", ID: d.id, Container: d.container, Title: ans.Now.Title,
		Why: "“" + ans.Now.Title + "” was edited on the team since you deleted it, so it was not deleted: it is back with the edit."})
	return nil
}

func (r *Replica) deleteRecord(ctx context.Context, d waitingDelete) error {
	var ans recordAnswer
	code, ok, err := r.sendDelete(ctx, d, "/records/"+url.PathEscape(d.container)+"/items/"+url.PathEscape(d.id),
		map[string]any{"expected_version": d.server}, &ans)
	if err != nil || !ok {
		return err
	}
	if err := r.forgetItems(ctx, `kind = 'record' AND item_id = ?`, d.id); err != nil {
		return err
	}
	if code != http.StatusConflict {
		return nil
	}
	if err := r.takeRecord(ctx, ans.Now, 0); err != nil {
		return err
	}
	r.c.o.Emit.Emit(EventKeptAfterDelete, KeptAfterDelete{Kind: "record", ID: d.id, Container: d.container, Title: ans.Now.Title,
		Why: "“" + ans.Now.Title + "” was edited on the team since you deleted it, so it was not deleted: it is back with the edit."})
	return nil
}

// dropKB removes a knowledge base the server deleted. One holding an
// article edited or written here since is kept, with those articles, and
// goes up again as the person's (its articles the server had and nobody
// here changed went with the delete already: see dropArticle).
func (r *Replica) dropKB(ctx context.Context, id string) error {
	c, err := r.item(ctx, "kb", id)
	if err != nil || !c.known {
		return err
	}
	kb, err := r.notes.KnowledgeBase(ctx, id)
	if errors.Is(err, notes.ErrNotFound) {
		return r.forgetItems(ctx, `(kind = 'kb' AND item_id = ?) OR (kind = 'article' AND container = ?)`, id, id)
	}
	if err != nil {
		return err
	}
	arts, err := r.notes.ListArticles(ctx, id)
	if err != nil {
		return fmt.Errorf("listing the articles of %s: %w", kb.Name, err)
	}
	var edited []string
	for _, a := range arts {
		ac, err := r.item(ctx, "article", a.ID)
		if err != nil {
			return err
		}
		if !ac.known || ac.local != a.Version || ac.problemAt != "" {
			edited = append(edited, a.Title)
		}
	}
	if len(edited) == 0 {
		if err := r.notes.DeleteKnowledgeBase(ctx, id); err != nil && !errors.Is(err, notes.ErrNotFound) {
			return err
		}
		return r.forgetItems(ctx, `(kind = 'kb' AND item_id = ?) OR (kind = 'article' AND container = ?)`, id, id)
	}
	// Kept: forgotten as the server's, it goes up again with its articles.
	if err := r.forgetItems(ctx, `(kind = 'kb' AND item_id = ?) OR (kind = 'article' AND container = ?)`, id, id); err != nil {
		return err
	}
	r.c.o.Emit.Emit(EventKeptAfterDelete, KeptAfterDelete{Kind: "kb", ID: id, Container: kb.Project, Title: kb.Name,
		Why: "Knowledge base “" + kb.Name + "” was deleted on the team, but you changed " + strings.Join(edited, ", ") + " here: it is kept with your changes and shared again."})
	return nil
}

// dropRecord removes a Record the server deleted, unless it was edited
// here since: then it is kept and goes up again as the person's.
func (r *Replica) dropRecord(ctx context.Context, item string) error {
	chID, id, _ := strings.Cut(item, "/")
	c, err := r.item(ctx, "record", id)
	if err != nil || !c.known {
		return err
	}
	local, err := r.notes.GetRecord(ctx, chID, id)
	switch {
	case errors.Is(err, notes.ErrNotFound):
	case err != nil:
		return err
	case local.Version == c.local && c.problemAt == "":
		if err := r.notes.DeleteRecordItem(ctx, chID, id); err != nil && !errors.Is(err, notes.ErrNotFound) {
			return err
		}
	default:
		r.c.o.Emit.Emit(EventKeptAfterDelete, KeptAfterDelete{Kind: "record", ID: id, Container: chID, Title: local.Title,
			Why: "“" + local.Title + "” was deleted on the team, but you edited it here: it is kept with your edit and shared again."})
	}
	return r.forgetItems(ctx, `kind = 'record' AND item_id = ?`, id)
}

// pullDeletes applies a page's deletes, in the order they were made.
func (r *Replica) pullDeletes(ctx context.Context, f feed) error {
	for _, c := range f.Changes {
		if !c.Deleted {
			continue
		}
		var err error
		switch c.Kind {
		case "article":
			err = r.dropArticle(ctx, c.ID)
		case "kb":
			err = r.dropKB(ctx, c.ID)
		case "record":
			err = r.dropRecord(ctx, c.ID)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
