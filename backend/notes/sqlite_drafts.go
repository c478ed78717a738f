package notes

import "context"

// sqliteDrafts keeps the editor's drafts in the drafts table.
type sqliteDrafts sqliteTx

var _ DraftRows = sqliteDrafts{}

func (d sqliteDrafts) PutDraft(ctx context.Context, dr Draft) error {
	_, err := sqliteTx(d).exec(ctx, `INSERT INTO drafts (owner_id, item_id, data, saved_at) VALUES (?, ?, ?, ?)
ON CONFLICT (owner_id, item_id) DO UPDATE SET data = excluded.data, saved_at = excluded.saved_at`, dr.OwnerID, dr.ItemID, dr.Data, dr.SavedAt)
	return err
}

func (d sqliteDrafts) DeleteDraft(ctx context.Context, owner, item string) error {
	_, err := sqliteTx(d).exec(ctx, `DELETE FROM drafts WHERE owner_id = ? AND item_id = ?`, owner, item)
	return err
}

func (d sqliteDrafts) Draft(ctx context.Context, owner, item string) (Draft, error) {
	dr := Draft{OwnerID: owner, ItemID: item}
	err := d.q.QueryRowContext(ctx, `SELECT data, saved_at FROM drafts WHERE owner_id = ? AND item_id = ?`, owner, item).Scan(&dr.Data, &dr.SavedAt)
	return dr, rowErr(err, "draft of "+owner+"/"+item)
}

func (d sqliteDrafts) Drafts(ctx context.Context) ([]Draft, error) {
	return collect(ctx, d.q, "drafts", func(sc scanner) (Draft, error) {
		var dr Draft
		return dr, sc.Scan(&dr.OwnerID, &dr.ItemID, &dr.Data, &dr.SavedAt)
	}, `SELECT owner_id, item_id, data, saved_at FROM drafts ORDER BY saved_at`)
}
