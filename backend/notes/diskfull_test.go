package notes

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/tools"
)

// fillDisk caps the database at the pages it holds now, as a full disk
// would: SQLite then fails every write that needs a new page with
// SQLITE_FULL, the error a full disk gives.
func (f *fixture) fillDisk(full bool) {
	f.t.Helper()
	ctx := context.Background()
	f.s.wmu.Lock()
	defer f.s.wmu.Unlock()
	limit := int64(1 << 30)
	if full {
		if err := f.s.wconn.QueryRowContext(ctx, "PRAGMA page_count").Scan(&limit); err != nil {
			f.t.Fatal(err)
		}
	}
	var got int64
	if err := f.s.wconn.QueryRowContext(ctx, "PRAGMA max_page_count = "+itoa(limit)).Scan(&got); err != nil || got != limit {
		f.t.Fatalf("capping the database at %d pages: got %d, %v", limit, got, err)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestDiskFullDuringNoteWrite: when the disk fills up in the middle of a
// Note write, from an agent or from the person, the write fails with an
// error that says the disk is full and what to do, the Note stays at its
// previous version with its previous text, and the same write succeeds
// once there is room again.
func TestDiskFullDuringNoteWrite(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	big := strings.Repeat("a long line that needs new pages\n", 4000)
	f.fillDisk(true)

	tl, _ := f.s.Tool(ToolEditNoteTab)
	args, _ := json.Marshal(f.edit(1, "key-full-0001", big))
	_, err := tl.Handler(ctx, tools.Call{Workspace: "ws-1", Args: args})
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "free some space") {
		t.Fatalf("agent write on a full disk: %v, want ErrDiskFull saying what to do", err)
	}
	if _, err := f.s.SaveTabAsPerson(ctx, "note-1", f.tab, 1, big); !errors.Is(err, ErrDiskFull) {
		t.Fatalf("person save on a full disk: %v, want ErrDiskFull", err)
	}
	n, err := f.s.GetNote(ctx, "note-1")
	if err != nil {
		t.Fatal(err)
	}
	if n.Version != 1 || n.Tabs[0].Text == nil || *n.Tabs[0].Text != "first line" {
		t.Fatalf("after the failed writes the Note is at version %d with %q, want version 1 with its old text", n.Version, *n.Tabs[0].Text)
	}

	f.fillDisk(false)
	if r := f.call(ToolEditNoteTab, f.edit(1, "key-full-0001", big)); r.IsError {
		t.Fatalf("the same write once there is room: %s", r.Text)
	}
	if n, _ := f.s.GetNote(ctx, "note-1"); n.Version != 2 || *n.Tabs[0].Text != big {
		t.Fatalf("after room came back the Note is at version %d", n.Version)
	}
}
