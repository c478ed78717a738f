package notes

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/tools"
)

// Reads must never take the write lock: store.Open's _txlock=immediate
// makes every default BeginTx a BEGIN IMMEDIATE, so a read written as
// db.BeginTx(ctx, nil) would queue behind every writer and every other
// reader. With a write transaction held open, every read path must still
// answer (a read that wanted the lock would fail with ErrLocked after the
// busy timeout instead).
func TestReadsDoNotTakeTheWriteLock(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	b := NewBinding(f.s, nil)
	add, err := b.AddTab("note-1", 1, KindSheet, "Numbers")
	if err != nil || !add.Result.Saved {
		t.Fatalf("adding a sheet: %+v %v", add, err)
	}

	tx, err := f.s.beginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE notes SET title = 'held' WHERE id = 'note-1'`); err != nil {
		t.Fatal(err)
	}

	tool := func(name string, args map[string]any) func() error {
		return func() error {
			tl, _ := f.s.Tool(name)
			raw, _ := json.Marshal(args)
			r, err := tl.Handler(ctx, tools.Call{Workspace: "ws-1", Tool: name, Args: raw})
			if err != nil {
				return err
			}
			if r.IsError {
				return fmt.Errorf("%s", r.Text)
			}
			return nil
		}
	}
	reads := map[string]func() error{
		"list_note_tabs":   tool(ToolListNoteTabs, map[string]any{"note_id": "note-1"}),
		"read_note_tab":    tool(ToolReadNoteTab, map[string]any{"note_id": "note-1", "tab_id": f.tab}),
		"read_sheet_range": tool(ToolReadSheetRange, map[string]any{"note_id": "note-1", "tab_id": add.Tab.ID, "row_count": 2, "col_count": 2}),
		"GetNote":          func() error { _, err := b.GetNote("note-1"); return err },
		"Overview":         func() error { _, err := b.Overview(); return err },
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(reads)*4)
	for name, read := range reads {
		for i := 0; i < 4; i++ { // several at once: readers must not queue on each other either
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := read(); err != nil {
					errs <- fmt.Errorf("%s under a held write lock: %w", name, err)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// The reads saw the committed state, not the open transaction's.
	n, err := b.GetNote("note-1")
	if err != nil || n.Title != "Q3 launch checklist" {
		t.Fatalf("a read saw uncommitted data: %q %v", n.Title, err)
	}
}
