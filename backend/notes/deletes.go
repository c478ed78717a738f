package notes

import (
	"context"
	"fmt"
)

// Deleting knowledge and Records. The person's deletes are plain; the
// team server's are conditional, like its writes: a delete made on a
// desktop that never saw a teammate's later edit must not remove that
// edit, so it happens only while the item is still at the version the
// desktop knew, in one transaction.

// DeleteKnowledgeBase removes a knowledge base and its articles.
func (k *Knowledge) DeleteKnowledgeBase(ctx context.Context, id string) error {
	found, err := k.b.Pool().Knowledge().DeleteBase(ctx, id)
	if err != nil {
		return fmt.Errorf("deleting knowledge base %s: %w", id, err)
	}
	if !found {
		return fmt.Errorf("deleting knowledge base %s: %w", id, ErrNotFound)
	}
	k.notifyItem("kb", id)
	return nil
}

// DeleteArticleIfVersion removes an article if it is still at expected.
// Otherwise nothing is removed and Current is the article as it is now
// (Saved false); an article already gone is ErrNotFound.
func (k *Knowledge) DeleteArticleIfVersion(ctx context.Context, kbID, id string, expected int64) (ArticleSave, error) {
	var out ArticleSave
	err := k.b.Write(ctx, func(tx Tx) error {
		out = ArticleSave{}
		cur, err := tx.Knowledge().Article(ctx, kbID, id)
		if err != nil {
			return errKeep{err}
		}
		if cur.Version != expected {
			out = ArticleSave{Version: cur.Version, Current: &cur}
			return nil
		}
		if _, err := tx.Knowledge().DeleteArticle(ctx, kbID, id); err != nil {
			return err
		}
		out = ArticleSave{Saved: true}
		return nil
	})
	if err != nil {
		return ArticleSave{}, keepOr(err, "deleting article %s: %w", id)
	}
	return out, nil
}

// DeleteKnowledgeBaseIf removes a knowledge base and its articles if its
// articles are exactly known (article id → version). Otherwise nothing is
// removed and the base's articles as they are now come back (with their
// bodies); a base already gone is ErrNotFound.
func (k *Knowledge) DeleteKnowledgeBaseIf(ctx context.Context, id string, known map[string]int64) (bool, []ArticleDoc, error) {
	var deleted bool
	var now []ArticleDoc
	err := k.b.Write(ctx, func(tx Tx) error {
		deleted, now = false, nil
		if _, err := tx.Knowledge().Base(ctx, id); err != nil {
			return errKeep{err}
		}
		list, err := tx.Knowledge().Articles(ctx, id)
		if err != nil {
			return err
		}
		same := len(list) == len(known)
		for _, a := range list {
			if v, ok := known[a.ID]; !ok || v != a.Version {
				same = false
			}
		}
		if !same {
			for _, a := range list {
				full, err := tx.Knowledge().Article(ctx, id, a.ID)
				if err != nil {
					return err
				}
				now = append(now, full)
			}
			return nil
		}
		if _, err := tx.Knowledge().DeleteBase(ctx, id); err != nil {
			return err
		}
		deleted = true
		return nil
	})
	if err != nil {
		return false, nil, keepOr(err, "deleting knowledge base %s: %w", id)
	}
	return deleted, now, nil
}

// DeleteRecordItem removes an item of a Record channel.
func (r *Records) DeleteRecordItem(ctx context.Context, channelID, itemID string) error {
	found, err := r.b.Pool().Records().DeleteItem(ctx, channelID, itemID)
	if err != nil {
		return fmt.Errorf("deleting record %s: %w", itemID, err)
	}
	if !found {
		return fmt.Errorf("deleting record %s of channel %s: %w", itemID, channelID, ErrNotFound)
	}
	r.notifyItem("record", itemID)
	return nil
}

// DeleteRecordIfVersion removes an item if it is still at expected;
// otherwise nothing is removed and Current is the item now. An item
// already gone is ErrNotFound.
func (r *Records) DeleteRecordIfVersion(ctx context.Context, channelID, itemID string, expected int64) (RecordSaveResult, error) {
	var out RecordSaveResult
	err := r.b.Write(ctx, func(tx Tx) error {
		out = RecordSaveResult{}
		item, err := tx.Records().Item(ctx, channelID, itemID)
		if err != nil {
			return errKeep{err}
		}
		if item.Version != expected {
			out = RecordSaveResult{Version: item.Version, Current: &item}
			return nil
		}
		if _, err := tx.Records().DeleteItem(ctx, channelID, itemID); err != nil {
			return err
		}
		out = RecordSaveResult{Saved: true}
		return nil
	})
	if err != nil {
		return RecordSaveResult{}, keepOr(err, "deleting record %s: %w", itemID)
	}
	return out, nil
}
