package teamsync

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// A desktop's deletes are conditional like its writes: a knowledge base,
// article or Record goes only while it is as the desktop last had it. One
// a teammate (or an assistant) edited since stays, and the answer is 409
// with what it holds now, so the desktop puts the edited copy back and
// says so: a delete never removes an edit its person did not see. A
// delete of what is already gone answers as done (a resend).

// Delete is a desktop's delete of an article or a Record.
type Delete struct {
	ExpectedVersion int64 `json:"expected_version"`
}

// KnowledgeBaseDelete is a desktop's delete of a knowledge base with the
// articles it knew in it (article id → version).
type KnowledgeBaseDelete struct {
	Articles map[string]int64 `json:"articles"`
}

// Deleted answers a delete that was done (or was already).
type Deleted struct {
	Deleted bool `json:"deleted"`
}

// KnowledgeBaseConflict answers a knowledge base delete that lost (HTTP
// 409): the base and its articles now.
type KnowledgeBaseConflict struct {
	Error         string              `json:"error"` // edited_since
	KnowledgeBase notes.KnowledgeBase `json:"knowledge_base"`
	Articles      []notes.ArticleDoc  `json:"articles"`
}

// HTTPStatus makes teamauth answer a KnowledgeBaseConflict with 409.
func (KnowledgeBaseConflict) HTTPStatus() int { return http.StatusConflict }

// editedSince is the conflict error of a delete that lost to an edit.
const editedSince = "edited_since"

// deleteWithin is the shape of every delete: the person may write in ws;
// the container (a knowledge base, a Record channel: noun id, read by
// find, which returns its workspace) must be of ws; del deletes and
// returns the conflict to answer, nil when done. What is already gone,
// the container or the item, answers as deleted: a resend.
func (s *Service) deleteWithin(ctx context.Context, personID, ws, noun, id string, find func() (string, error), del func() (any, error)) (any, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return nil, err
	}
	in, err := find()
	if errors.Is(err, notes.ErrNotFound) {
		return Deleted{Deleted: true}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the %s: %w", noun, err)
	}
	if in != ws {
		return nil, teamauth.Refuse(http.StatusNotFound, "no %s %q in this workspace", noun, id)
	}
	conflict, err := del()
	if errors.Is(err, notes.ErrNotFound) {
		return Deleted{Deleted: true}, nil
	}
	if err != nil {
		return nil, err
	}
	if conflict != nil {
		return conflict, nil
	}
	return Deleted{Deleted: true}, nil
}

// DeleteKnowledgeBase removes a synced knowledge base and its articles if
// they are the ones the desktop knew.
func (s *Service) DeleteKnowledgeBase(ctx context.Context, personID, ws, kbID string, d KnowledgeBaseDelete) (any, error) {
	var kb notes.KnowledgeBase
	return s.deleteWithin(ctx, personID, ws, "knowledge base", kbID, func() (string, error) {
		var err error
		kb, err = s.cfg.Notes.KnowledgeBase(ctx, kbID)
		return kb.Workspace, err
	}, func() (any, error) {
		if d.Articles == nil {
			d.Articles = map[string]int64{}
		}
		done, now, err := s.cfg.Notes.DeleteKnowledgeBaseIf(ctx, kbID, d.Articles)
		if err != nil || done {
			return nil, err
		}
		if now == nil {
			now = []notes.ArticleDoc{}
		}
		return KnowledgeBaseConflict{Error: editedSince, KnowledgeBase: kb, Articles: now}, nil
	})
}

// DeleteArticle removes an article still at the version the desktop knew.
func (s *Service) DeleteArticle(ctx context.Context, personID, ws, kbID, id string, d Delete) (any, error) {
	return s.deleteWithin(ctx, personID, ws, "knowledge base", kbID, func() (string, error) {
		kb, err := s.cfg.Notes.KnowledgeBase(ctx, kbID)
		return kb.Workspace, err
	}, func() (any, error) {
		res, err := s.cfg.Notes.DeleteArticleIfVersion(ctx, kbID, id, d.ExpectedVersion)
		if err != nil || res.Saved {
			return nil, err
		}
		return ArticleConflict{Error: editedSince, Article: *res.Current}, nil
	})
}

// DeleteRecord removes a Record item still at the version the desktop knew.
func (s *Service) DeleteRecord(ctx context.Context, personID, ws, channelID, id string, d Delete) (any, error) {
	return s.deleteWithin(ctx, personID, ws, "record channel", channelID, func() (string, error) {
		ch, err := s.cfg.Notes.RecordBoardByID(ctx, channelID)
		return ch.Workspace, err
	}, func() (any, error) {
		res, err := s.cfg.Notes.DeleteRecordIfVersion(ctx, channelID, id, d.ExpectedVersion)
		if err != nil || res.Saved {
			return nil, err
		}
		return RecordConflict{Error: editedSince, Record: *res.Current}, nil
	})
}

func (s *Service) deleteKB(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in KnowledgeBaseDelete
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.DeleteKnowledgeBase(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("kb"), in)
}

func (s *Service) deleteArticle(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in Delete
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.DeleteArticle(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("kb"), r.PathValue("article"), in)
}

func (s *Service) deleteRecord(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in Delete
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.DeleteRecord(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("channel"), r.PathValue("item"), in)
}
