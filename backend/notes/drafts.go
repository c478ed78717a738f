package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// DraftsComponent is the person's editor drafts in schema_migrations.
//
// A draft is what the person typed and has not saved (or could not save) in
// a Note tab, a knowledge article or a Record item's body, kept with the
// text and version it started from so compare and re-apply work after a
// restart. It used to live only in the web view's localStorage, which
// WebKit writes to disk seconds late: a draft typed just before the app was
// killed was gone. Each change is now one small committed transaction in
// the app's database, so what the editor handed over survives a SIGKILL.
const DraftsComponent = "drafts"

var draftMigrations = []store.Migration{
	{Version: 1, SQL: `
CREATE TABLE drafts (
	owner_id TEXT NOT NULL, -- the Note, knowledge base or Record channel
	item_id  TEXT NOT NULL, -- the tab, article or item
	data     TEXT NOT NULL, -- the editor's draft (JSON), kept as the editor wrote it
	saved_at TEXT NOT NULL,
	PRIMARY KEY (owner_id, item_id)
);
`},
}

// MaxDraftBytes bounds one draft: a Note tab is text a person types, and a
// runaway editor must not fill the disk with one row.
const MaxDraftBytes = 8 << 20

// ErrBadDraft: a draft that is not a JSON object, too large, or without a
// Note (or knowledge base, channel) and tab (article, item) to belong to.
var ErrBadDraft = errors.New("the draft cannot be kept")

// Draft is one kept draft. Data is the editor's own record of it (the text
// it started from, the version it read, the person's text or changed cells);
// the store keeps it exactly and never interprets it.
type Draft struct {
	OwnerID string `json:"owner_id"`
	ItemID  string `json:"item_id"`
	Data    string `json:"data"`
	SavedAt string `json:"saved_at"`
}

func checkDraft(owner, item, data string) error {
	switch {
	case strings.TrimSpace(owner) == "" || strings.TrimSpace(item) == "":
		return fmt.Errorf("%w: it names no Note and tab; reopen the Note and type again", ErrBadDraft)
	case len(data) > MaxDraftBytes:
		return fmt.Errorf("%w: it is %d MiB, more than the %d MiB a draft may hold; save the text or split it", ErrBadDraft, len(data)>>20, MaxDraftBytes>>20)
	case !json.Valid([]byte(data)) || !strings.HasPrefix(strings.TrimSpace(data), "{"):
		return fmt.Errorf("%w: the editor sent something other than a JSON object", ErrBadDraft)
	}
	return nil
}

// Drafts is the person's unsaved editor drafts.
type Drafts struct{ *core }

// PutDraft keeps data as the draft of (owner, item), replacing the one
// before, in one committed transaction.
func (d *Drafts) PutDraft(ctx context.Context, owner, item, data string) error {
	if err := checkDraft(owner, item, data); err != nil {
		return err
	}
	dr := Draft{OwnerID: owner, ItemID: item, Data: data, SavedAt: d.opts.Now().UTC().Format(time.RFC3339Nano)}
	if err := d.b.Write(ctx, func(tx Tx) error { return tx.Drafts().PutDraft(ctx, dr) }); err != nil {
		return fmt.Errorf("keeping the draft: %w", lockErr(err))
	}
	return nil
}

// DeleteDraft drops the draft of (owner, item); none is not an error.
func (d *Drafts) DeleteDraft(ctx context.Context, owner, item string) error {
	if err := d.b.Write(ctx, func(tx Tx) error { return tx.Drafts().DeleteDraft(ctx, owner, item) }); err != nil {
		return fmt.Errorf("dropping the draft: %w", lockErr(err))
	}
	return nil
}

// GetDraft returns the draft of (owner, item), or ErrNotFound.
func (d *Drafts) GetDraft(ctx context.Context, owner, item string) (Draft, error) {
	dr, err := d.b.Pool().Drafts().Draft(ctx, owner, item)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Draft{}, fmt.Errorf("reading the draft: %w", err)
	}
	if err != nil {
		return Draft{}, err
	}
	return dr, nil
}

// ListDrafts returns every kept draft, oldest first.
func (d *Drafts) ListDrafts(ctx context.Context) ([]Draft, error) {
	return d.b.Pool().Drafts().Drafts(ctx)
}

// SaveDraft keeps the editor's draft of a Note tab (or knowledge article,
// Record item: owner is then the knowledge base or channel). The editor
// calls it about 300 ms after the person stops typing.
func (b *Binding) SaveDraft(owner, item, data string) error {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.drafts.PutDraft(ctx, owner, item, data)
}

// DiscardDraft drops a draft once it is saved or the person discards it.
func (b *Binding) DiscardDraft(owner, item string) error {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.drafts.DeleteDraft(ctx, owner, item)
}

// Drafts lists every kept draft (the editor reads them all once at start).
func (b *Binding) Drafts() ([]Draft, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.drafts.ListDrafts(ctx)
}
