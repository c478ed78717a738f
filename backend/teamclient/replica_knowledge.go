package teamclient

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/notes"
)

// EventKept carries an article the replica kept as a copy for the person
// when their edit lost the race on the server (a KeptCopy).
const EventKept = "knowledge:kept"

// KeptCopy names the person's version of an article that lost the race:
// Copy is a new article beside Article holding their text, and Article
// holds the server's.
type KeptCopy struct {
	KnowledgeBase string `json:"knowledgeBaseId"`
	Article       string `json:"articleId"`
	Copy          string `json:"copyId"`
	Title         string `json:"title"`
}

// itemCopy is a knowledge base or article as the server last had it.
type itemCopy struct {
	known                  bool
	container              string
	server, local          int64
	title, body, problemAt string
}

func (r *Replica) item(ctx context.Context, kind, id string) (itemCopy, error) {
	var c itemCopy
	err := r.db.QueryRowContext(ctx, `SELECT container, server_version, local_version, title, body, problem FROM team_sync_items
		WHERE kind = ? AND item_id = ?`, kind, id).Scan(&c.container, &c.server, &c.local, &c.title, &c.body, &c.problemAt)
	if errors.Is(err, sql.ErrNoRows) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("reading the synced copy of %s: %w", id, err)
	}
	c.known = true
	return c, nil
}

func (r *Replica) rememberItem(ctx context.Context, kind, id string, c itemCopy) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO team_sync_items (kind, item_id, container, server_version, local_version, title, body, problem)
		VALUES (?, ?, ?, ?, ?, ?, ?, '') ON CONFLICT (kind, item_id) DO UPDATE SET container = excluded.container,
		server_version = excluded.server_version, local_version = excluded.local_version, title = excluded.title, body = excluded.body, problem = ''`,
		kind, id, c.container, c.server, c.local, c.title, c.body)
	if err != nil {
		return fmt.Errorf("recording the synced copy of %s: %w", id, err)
	}
	return nil
}

// refuseItem keeps the server's refusal of an item beside it (shown on
// Settings → Team); the local text stays as it is and is not sent again
// until it changes.
func (r *Replica) refuseItem(ctx context.Context, kind, id, container string, local int64, why string) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO team_sync_items (kind, item_id, container, local_version, problem) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (kind, item_id) DO UPDATE SET problem = excluded.problem, local_version = excluded.local_version`, kind, id, container, local, why)
	return err
}

// syncedKBs is every local knowledge base of a synced project, with the
// team workspace it goes to.
func (r *Replica) syncedKBs(ctx context.Context) (map[string]string, []notes.KnowledgeBase, error) {
	return syncedIn(ctx, r, "knowledge bases", r.notes.ListKnowledgeBases,
		func(kb notes.KnowledgeBase) (string, string) { return kb.ID, kb.Project })
}

// syncedIn lists the containers (knowledge bases, Record channels) of
// every local workspace and keeps those of synced projects, with the team
// workspace each goes to. ids gives a container's id and project.
func syncedIn[T any](ctx context.Context, r *Replica, what string, list func(context.Context, string) ([]T, error), ids func(T) (string, string)) (map[string]string, []T, error) {
	locals, err := r.localWorkspaces(ctx)
	if err != nil {
		return nil, nil, err
	}
	wsOf := map[string]string{}
	var out []T
	for _, l := range locals {
		items, err := list(ctx, l)
		if err != nil {
			return nil, nil, fmt.Errorf("listing %s: %w", what, err)
		}
		for _, it := range items {
			id, project := ids(it)
			if project == "" {
				continue
			}
			p, err := r.projectOf(ctx, project)
			if err != nil {
				return nil, nil, err
			}
			if p.workspace != "" {
				wsOf[id] = p.workspace
				out = append(out, it)
			}
		}
	}
	return wsOf, out, nil
}

// pushKnowledge sends the knowledge bases and articles of synced projects
// that changed here since the server last had them. It is a scan, not a
// queue: what differs from the server's copy is what waits, so nothing
// is lost across restarts and an article edited ten times offline goes
// up once, as it is now.
func (r *Replica) pushKnowledge(ctx context.Context) error {
	wsOf, kbs, err := r.syncedKBs(ctx)
	if err != nil {
		return err
	}
	for _, kb := range kbs {
		ws := wsOf[kb.ID]
		c, err := r.item(ctx, "kb", kb.ID)
		if err != nil {
			return err
		}
		if !c.known {
			var made notes.KnowledgeBase
			_, err := r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(ws)+"/kbs",
				map[string]string{"knowledge_base_id": kb.ID, "project_id": kb.Project, "name": kb.Name}, &made)
			var refused *APIError
			if errors.As(err, &refused) {
				if err := r.refuseItem(ctx, "kb", kb.ID, kb.Project, 0, refused.Message); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			if err := r.rememberItem(ctx, "kb", kb.ID, itemCopy{container: kb.Project, server: 1}); err != nil {
				return err
			}
		} else if c.problemAt != "" {
			continue
		}
		arts, err := r.notes.ListArticles(ctx, kb.ID)
		if err != nil {
			return fmt.Errorf("listing the articles of %s: %w", kb.Name, err)
		}
		for _, a := range arts {
			if err := r.pushArticle(ctx, ws, kb.ID, a.ID, a.Version); err != nil {
				return err
			}
		}
	}
	return nil
}

// articleAnswer is teamsync's answer to an article write: the article, or
// version_conflict with the article as it is now.
type articleAnswer struct {
	notes.ArticleDoc
	Error string           `json:"error"`
	Now   notes.ArticleDoc `json:"article"`
}

func (r *Replica) pushArticle(ctx context.Context, ws, kbID, id string, version int64) error {
	c, err := r.item(ctx, "article", id)
	if err != nil || (c.known && c.local == version) {
		return err // as the server has it, or refused at this version
	}
	mine, err := r.notes.GetArticle(ctx, kbID, id)
	if err != nil {
		return fmt.Errorf("reading article %s: %w", id, err)
	}
	var ans articleAnswer
	code, err := r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(ws)+"/kbs/"+url.PathEscape(kbID)+"/articles/"+url.PathEscape(id),
		map[string]any{"expected_version": c.server, "title": mine.Title, "body": mine.Body}, &ans)
	var refused *APIError
	if errors.As(err, &refused) {
		if refused.Status == http.StatusNotFound && c.server > 0 {
			return nil // deleted on the server: the pull's delete keeps this edit (dropArticle)
		}
		return r.refuseItem(ctx, "article", id, kbID, mine.Version, refused.Message)
	}
	if err != nil {
		return err
	}
	if code == http.StatusConflict {
		return r.articleLost(ctx, kbID, mine, ans.Now)
	}
	return r.rememberItem(ctx, "article", id, itemCopy{container: kbID, server: ans.Version, local: mine.Version, title: mine.Title, body: mine.Body})
}

// articleLost keeps the person's text as a new article beside the one it
// was written over ("… (your version)"), which goes up in turn, and puts
// the server's text in the original: both stay, nothing is overwritten.
func (r *Replica) articleLost(ctx context.Context, kbID string, mine notes.ArticleDoc, now notes.ArticleDoc) error {
	title := mine.Title + " (your version)"
	if len(title) > 200 {
		title = title[:200]
	}
	kept, err := r.notes.PutArticle(ctx, kbID, "", title, mine.Body)
	if err != nil {
		return fmt.Errorf("keeping your version of %q: %w", mine.Title, err)
	}
	if err := r.takeArticle(ctx, kbID, now, mine.Version); err != nil {
		return err
	}
	r.c.o.Emit.Emit(EventKept, KeptCopy{KnowledgeBase: kbID, Article: mine.ID, Copy: kept.ID, Title: mine.Title})
	return nil
}

// takeArticle puts the server's article in place here and remembers it,
// if the local one is still at version local (0: there is none yet); an
// edit the person saved meanwhile is left for the next send to decide.
func (r *Replica) takeArticle(ctx context.Context, kbID string, a notes.ArticleDoc, local int64) error {
	var now int64
	if local == 0 {
		put, err := r.notes.PutArticle(ctx, kbID, a.ID, a.Title, a.Body)
		if err != nil {
			return fmt.Errorf("taking in article %s: %w", a.ID, err)
		}
		now = put.Version
	} else {
		res, err := r.notes.SaveArticleAsPerson(ctx, kbID, a.ID, local, a.Title, a.Body)
		if err != nil {
			return fmt.Errorf("taking in article %s: %w", a.ID, err)
		}
		if !res.Saved {
			return nil
		}
		now = res.Version
	}
	return r.rememberItem(ctx, "article", a.ID, itemCopy{container: kbID, server: a.Version, local: now, title: a.Title, body: a.Body})
}

// takeKB makes a knowledge base of a synced project here (same id).
func (r *Replica) takeKB(ctx context.Context, local string, kb notes.KnowledgeBase) error {
	if _, err := r.notes.KnowledgeBase(ctx, kb.ID); errors.Is(err, notes.ErrNotFound) {
		if _, err := r.notes.CreateKnowledgeBase(ctx, local, kb.Project, kb.ID, kb.Name); err != nil {
			return fmt.Errorf("making knowledge base %s here: %w", kb.Name, err)
		}
	} else if err != nil {
		return err
	}
	return r.rememberItem(ctx, "kb", kb.ID, itemCopy{container: kb.Project, server: 1})
}

// pullArticle takes in the server's article unless the person edited it
// here since (sending decides who won) or it is already here.
func (r *Replica) pullArticle(ctx context.Context, a notes.ArticleDoc) error {
	if _, err := r.notes.KnowledgeBase(ctx, a.KnowledgeBase); err != nil {
		if errors.Is(err, notes.ErrNotFound) {
			return nil // a base of a project this desktop does not sync
		}
		return err
	}
	c, err := r.item(ctx, "article", a.ID)
	if err != nil {
		return err
	}
	if c.known && c.server == a.Version {
		return nil
	}
	local, err := r.notes.GetArticle(ctx, a.KnowledgeBase, a.ID)
	switch {
	case errors.Is(err, notes.ErrNotFound) && c.known && c.server > 0:
		return nil // deleted here: sending the delete decides
	case errors.Is(err, notes.ErrNotFound):
		local.Version = 0
	case err != nil:
		return err
	case !c.known || local.Version != c.local:
		return nil // edited here: its send decides
	}
	return r.takeArticle(ctx, a.KnowledgeBase, a, local.Version)
}

// dropArticle removes an article the server deleted, unless it was
// edited here since (then it goes up again as the person's).
func (r *Replica) dropArticle(ctx context.Context, item string) error {
	kbID, id, _ := strings.Cut(item, "/")
	c, err := r.item(ctx, "article", id)
	if err != nil || !c.known {
		return err
	}
	local, err := r.notes.GetArticle(ctx, kbID, id)
	switch {
	case errors.Is(err, notes.ErrNotFound):
	case err != nil:
		return err
	case local.Version == c.local && c.problemAt == "":
		if err := r.notes.DeleteArticle(ctx, kbID, id); err != nil && !errors.Is(err, notes.ErrNotFound) {
			return err
		}
	default:
		r.c.o.Emit.Emit(EventKeptAfterDelete, KeptAfterDelete{Kind: "article", ID: id, Container: kbID, Title: local.Title,
			Why: "“" + local.Title + "” was deleted on the team, but you edited it here: it is kept with your edit and shared again."})
	}
	_, err = r.db.ExecContext(ctx, `DELETE FROM team_sync_items WHERE kind = 'article' AND item_id = ?`, id)
	return err
}

// knowledgeWaiting counts a project's knowledge waiting to go up, and the
// server's refusals of some of it.
func (r *Replica) knowledgeWaiting(ctx context.Context, st *ProjectState) error {
	rows, err := r.db.QueryContext(ctx, `SELECT problem FROM team_sync_items WHERE problem <> '' AND (container = ?
		OR container IN (SELECT item_id FROM team_sync_items WHERE kind IN ('kb', 'rchannel') AND container = ?))`, st.ID, st.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var why string
		if err := rows.Scan(&why); err != nil {
			return err
		}
		st.Problems = append(st.Problems, why)
	}
	return rows.Err()
}

// pullKnowledge takes in a page's knowledge bases and articles of the
// projects this desktop syncs, and the articles deleted on the server.
func (r *Replica) pullKnowledge(ctx context.Context, ws string, f feed) error {
	for _, kb := range f.KnowledgeBases {
		p, err := r.projectOf(ctx, kb.Project)
		if err != nil {
			return err
		}
		if p.workspace != ws {
			continue
		}
		if err := r.takeKB(ctx, p.local, kb); err != nil {
			return err
		}
	}
	for _, a := range f.Articles {
		if err := r.pullArticle(ctx, a); err != nil {
			return err
		}
	}
	if err := r.pullRecords(ctx, ws, f.RecordChannels, f.Records); err != nil {
		return err
	}
	if err := r.pullChannels(ctx, ws, f.Channels); err != nil {
		return err
	}
	if err := r.pullPosts(ctx, ws, f.Posts); err != nil {
		return err
	}
	return r.pullDeletes(ctx, f)
}

// knowledgeEvery is how often Run looks for knowledge edited here: the
// knowledge editor does not announce its saves the way Notes do.
const knowledgeEvery = time.Second

// watchKnowledge wakes Run when an article or knowledge base of a synced
// project changed here, until ctx ends.
func (r *Replica) watchKnowledge(ctx context.Context) {
	t := time.NewTicker(knowledgeEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if dirty, err := r.knowledgeDirty(ctx); err == nil && dirty {
			r.poke()
		} else if dirty, err := r.recordsDirty(ctx); err == nil && dirty {
			r.poke()
		} else if ds, err := r.deletesWaiting(ctx); err == nil && len(ds) > 0 {
			r.poke()
		}
	}
}

func (r *Replica) knowledgeDirty(ctx context.Context) (bool, error) {
	_, kbs, err := r.syncedKBs(ctx)
	if err != nil {
		return false, err
	}
	for _, kb := range kbs {
		c, err := r.item(ctx, "kb", kb.ID)
		if err != nil {
			return false, err
		}
		if !c.known {
			return true, nil
		}
		arts, err := r.notes.ListArticles(ctx, kb.ID)
		if err != nil {
			return false, err
		}
		for _, a := range arts {
			c, err := r.item(ctx, "article", a.ID)
			if err != nil {
				return false, err
			}
			if !c.known || c.local != a.Version {
				return true, nil
			}
		}
	}
	return false, nil
}
