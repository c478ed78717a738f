package teamsync

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// Knowledge bases of synced projects travel like Notes: numbered changes
// (kinds "kb" and "article", an article's item being "<kb>/<article>"),
// and a desktop's writes are conditional on the version it started from;
// a write that lost answers 409 with the article as it is now.

// NewKnowledgeBase is a knowledge base a desktop made in a synced project.
type NewKnowledgeBase struct {
	ID      string `json:"knowledge_base_id"`
	Project string `json:"project_id"`
	Name    string `json:"name"`
}

// CreateKnowledgeBase stores a desktop's knowledge base under its id;
// sent again, it answers the base as it is.
func (s *Service) CreateKnowledgeBase(ctx context.Context, personID, ws string, in NewKnowledgeBase) (notes.KnowledgeBase, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return notes.KnowledgeBase{}, err
	}
	if !goodID(in.ID, "kb") {
		return notes.KnowledgeBase{}, badInput("knowledge_base_id is the desktop's id of the knowledge base (kb-…)")
	}
	if _, err := s.project(ctx, ws, in.Project); err != nil {
		return notes.KnowledgeBase{}, err
	}
	if have, err := s.cfg.Notes.KnowledgeBase(ctx, in.ID); err == nil {
		if have.Workspace != ws || have.Project != in.Project {
			return have, teamauth.Refuse(http.StatusConflict, "knowledge base %s already exists elsewhere", in.ID)
		}
		return have, nil
	}
	kb, err := s.cfg.Notes.CreateKnowledgeBase(ctx, ws, in.Project, in.ID, in.Name)
	if errors.Is(err, notes.ErrInvalid) {
		return kb, badInput("%v", err)
	}
	if err != nil {
		if have, gerr := s.cfg.Notes.KnowledgeBase(ctx, in.ID); gerr == nil && have.Workspace == ws {
			return have, nil // a resend raced the first
		}
		return kb, fmt.Errorf("creating the knowledge base: %w", err)
	}
	return kb, nil
}

// ArticleWrite is a desktop's write of an article: a new one
// (expected_version 0) or a replacement of the version it started from.
type ArticleWrite struct {
	ExpectedVersion int64  `json:"expected_version"`
	Title           string `json:"title"`
	Body            string `json:"body"`
}

// ArticleConflict answers a write that lost (HTTP 409): the article now.
type ArticleConflict struct {
	Error   string           `json:"error"` // version_conflict
	Article notes.ArticleDoc `json:"article"`
}

// HTTPStatus makes teamauth answer an ArticleConflict with 409.
func (ArticleConflict) HTTPStatus() int { return http.StatusConflict }

// WriteArticle creates or replaces an article of a synced knowledge base.
// A write the server already holds (a resend whose answer was lost)
// answers the article instead of a conflict.
func (s *Service) WriteArticle(ctx context.Context, personID, ws, kbID, id string, w ArticleWrite) (any, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return nil, err
	}
	kb, err := s.cfg.Notes.KnowledgeBase(ctx, kbID)
	if errors.Is(err, notes.ErrNotFound) || (err == nil && kb.Workspace != ws) {
		return nil, teamauth.Refuse(http.StatusNotFound, "no knowledge base %q in this workspace: is its project still synced?", kbID)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the knowledge base: %w", err)
	}
	if !goodID(id, "art") {
		return nil, badInput("the article id is the desktop's (art-…)")
	}
	cur, err := s.cfg.Notes.GetArticle(ctx, kbID, id)
	found := err == nil
	if err != nil && !errors.Is(err, notes.ErrNotFound) {
		return nil, fmt.Errorf("reading the article: %w", err)
	}
	if found && cur.Title == w.Title && cur.Body == w.Body {
		return cur, nil
	}
	if w.ExpectedVersion == 0 {
		if found {
			return ArticleConflict{Error: "version_conflict", Article: cur}, nil
		}
		put, err := s.cfg.Notes.PutArticle(ctx, kbID, id, w.Title, w.Body)
		if err != nil {
			return nil, articleSaveErr(err)
		}
		return put, nil
	}
	if !found {
		return nil, teamauth.Refuse(http.StatusNotFound, "article %s is no longer in this knowledge base", id)
	}
	res, err := s.cfg.Notes.SaveArticleAsPerson(ctx, kbID, id, w.ExpectedVersion, w.Title, w.Body)
	if err != nil {
		return nil, articleSaveErr(err)
	}
	if !res.Saved {
		if res.Current == nil {
			return nil, teamauth.Refuse(http.StatusNotFound, "article %s is no longer in this knowledge base", id)
		}
		return ArticleConflict{Error: "version_conflict", Article: *res.Current}, nil
	}
	// The article as this write left it, not re-read: a teammate's write
	// may have landed since, and the desktop remembers the answer as the
	// version its text is on (told the newer one, it would keep its text
	// and never take theirs).
	return *res.Article, nil
}

func articleSaveErr(err error) error {
	if errors.Is(err, notes.ErrInvalid) {
		return badInput("%v", err)
	}
	return fmt.Errorf("saving the article: %w", err)
}

func (s *Service) createKB(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in NewKnowledgeBase
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.CreateKnowledgeBase(r.Context(), p.ID, r.PathValue("ws"), in)
}

func (s *Service) writeArticle(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in ArticleWrite
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.WriteArticle(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("kb"), r.PathValue("article"), in)
}

// fillKnowledge adds a "kb" or "article" change's current state to f.
func (s *Service) fillKnowledge(ctx context.Context, ws string, c Change, f *Feed) error {
	switch c.Kind {
	case "kb":
		kb, err := s.cfg.Notes.KnowledgeBase(ctx, c.ID)
		if errors.Is(err, notes.ErrNotFound) || (err == nil && kb.Workspace != ws) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading knowledge base %s: %w", c.ID, err)
		}
		f.KnowledgeBases = append(f.KnowledgeBases, kb)
	case "article":
		kbID, id, _ := strings.Cut(c.ID, "/")
		kb, err := s.cfg.Notes.KnowledgeBase(ctx, kbID)
		if errors.Is(err, notes.ErrNotFound) || (err == nil && kb.Workspace != ws) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading knowledge base %s: %w", kbID, err)
		}
		a, err := s.cfg.Notes.GetArticle(ctx, kbID, id)
		if errors.Is(err, notes.ErrNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading article %s: %w", c.ID, err)
		}
		f.Articles = append(f.Articles, a)
	}
	return nil
}

// projectKnowledge is a project's knowledge bases and articles now.
func (s *Service) projectKnowledge(ctx context.Context, ws, project string) ([]notes.KnowledgeBase, []notes.ArticleDoc, error) {
	all, err := s.cfg.Notes.ListKnowledgeBases(ctx, ws)
	if err != nil {
		return nil, nil, fmt.Errorf("listing knowledge bases: %w", err)
	}
	kbs, arts := []notes.KnowledgeBase{}, []notes.ArticleDoc{}
	for _, kb := range all {
		if kb.Project != project {
			continue
		}
		kbs = append(kbs, kb)
		list, err := s.cfg.Notes.ListArticles(ctx, kb.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("listing articles of %s: %w", kb.ID, err)
		}
		for _, in := range list {
			a, err := s.cfg.Notes.GetArticle(ctx, kb.ID, in.ID)
			if errors.Is(err, notes.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, nil, fmt.Errorf("reading article %s: %w", in.ID, err)
			}
			arts = append(arts, a)
		}
	}
	return kbs, arts, nil
}
