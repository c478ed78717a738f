package panestore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
)

func openAt(t *testing.T, path string) *Store {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st, err := Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func keeping(st *Store) *terminal.Manager {
	m := terminal.NewManager(nil)
	m.SetStore(st)
	m.SetScrollback(terminal.ScrollbackPolicy{Keep: true, Lines: 5000})
	return m
}

func TestSavedScrollbackIsBoundedToItsNewestLines(t *testing.T) {
	st := openAt(t, filepath.Join(t.TempDir(), "app.db"))
	var b bytes.Buffer
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, "line %07d %s\r\n", i, strings.Repeat("x", 40))
	}
	if err := st.SaveScrollback("p-big", b.Bytes()); err != nil {
		t.Fatal(err)
	}
	got, saved, err := st.LoadScrollback("p-big")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > terminal.MaxScrollbackBytes || len(got) < terminal.MaxScrollbackBytes-100 {
		t.Fatalf("kept %d bytes of %d, want just under %d", len(got), b.Len(), terminal.MaxScrollbackBytes)
	}
	if !bytes.HasSuffix(b.Bytes(), got) || !bytes.HasPrefix(got, []byte("line ")) {
		t.Fatalf("kept bytes should be the newest whole lines, start %q", got[:20])
	}
	if time.Since(saved) > time.Minute || time.Since(saved) < 0 {
		t.Fatalf("saved at %v, want about now", saved)
	}
	if none, _, err := st.LoadScrollback("p-none"); none != nil || err != nil {
		t.Fatalf("a pane never saved: %q, %v; want nothing", none, err)
	}
}

// What a pane printed is shown again after a restart, above a line that
// says so and before the new shell's output.
func TestScrollbackSurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	dir := t.TempDir()
	m := keeping(openAt(t, path))
	info, err := m.Create(terminal.Options{Dir: dir, Argv: []string{"/bin/sh", "-c", "echo osf-before-quit-42; exec sleep 30"}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Get(info.ID)
	waitUntil(t, "the output", func() bool { return strings.Contains(p.Emulator().Text(), "osf-before-quit-42") })
	m.CloseAll() // quitting writes every pane's output

	m2 := keeping(openAt(t, path))
	defer m2.CloseAll()
	if err := m2.Restore(nil); err != nil {
		t.Fatal(err)
	}
	p2, err := m2.Get(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the restored pane's new output", func() bool { return strings.Contains(p2.Emulator().Text(), "osf-before-quit-42") })
	a, err := m2.Attach(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	m2.Detach(info.ID)
	if !bytes.Contains(a.Restored, []byte("osf-before-quit-42")) {
		t.Fatalf("restored %q: want the output saved at the quit", a.Restored)
	}
	if s := string(a.Data); !strings.Contains(s, "Restored from the last session") || !strings.Contains(s, "osf-before-quit-42") {
		t.Fatalf("snapshot %q: want the restored line, then the new output", s)
	}
}

func TestClosingAPaneDeletesItsScrollback(t *testing.T) {
	st := openAt(t, filepath.Join(t.TempDir(), "app.db"))
	m := keeping(st)
	defer m.CloseAll()
	info, err := m.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"/bin/sh", "-c", "echo osf-closed-7; exec sleep 30"}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Get(info.ID)
	waitUntil(t, "the output", func() bool { return strings.Contains(p.Emulator().Text(), "osf-closed-7") })
	if err := m.SaveScrollbacks(); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := st.LoadScrollback(info.ID); !bytes.Contains(got, []byte("osf-closed-7")) {
		t.Fatalf("saved %q, want the pane's output", got)
	}
	if err := m.Close(info.ID); err != nil {
		t.Fatal(err)
	}
	if got, _, err := st.LoadScrollback(info.ID); got != nil || err != nil {
		t.Fatalf("after Close the store holds %q (%v), want nothing", got, err)
	}
	if err := m.SaveScrollbacks(); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := st.LoadScrollback(info.ID); got != nil {
		t.Fatalf("a save after Close wrote %q back", got)
	}
}

func TestTurningKeepingOffDeletesEverySavedScrollback(t *testing.T) {
	st := openAt(t, filepath.Join(t.TempDir(), "app.db"))
	m := keeping(st)
	defer m.CloseAll()
	st.SaveScrollback("p-a", []byte("a\r\n"))
	st.SaveScrollback("p-b", []byte("b\r\n"))
	m.SetScrollback(terminal.ScrollbackPolicy{Keep: false, Lines: 5000})
	for _, id := range []string{"p-a", "p-b"} {
		if got, _, _ := st.LoadScrollback(id); got != nil {
			t.Fatalf("%s still holds %q after keeping was turned off", id, got)
		}
	}
}

// A damaged row is a clear error; the pane still starts, says its old
// output was discarded, and the row is gone.
func TestDamagedScrollbackStillStartsThePane(t *testing.T) {
	st := openAt(t, filepath.Join(t.TempDir(), "app.db"))
	dir := t.TempDir()
	if err := st.SavePane(terminal.Spec{ID: "p-dmg", Dir: dir, Argv: []string{"/bin/sh"}, Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.Exec(`INSERT INTO pane_scrollback (id, data) VALUES ('p-dmg', X'1f8b0800deadbeef')`); err != nil {
		t.Fatal(err)
	}
	_, _, err := st.LoadScrollback("p-dmg")
	if !errors.Is(err, terminal.ErrScrollbackDamaged) || !strings.Contains(err.Error(), "p-dmg") {
		t.Fatalf("LoadScrollback = %v, want ErrScrollbackDamaged naming the pane", err)
	}
	m := keeping(st)
	defer m.CloseAll()
	if err := m.Restore(nil); err != nil {
		t.Fatalf("Restore: %v (a damaged scrollback must not stop the pane)", err)
	}
	p, err := m.Get("p-dmg")
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the notice", func() bool {
		return strings.Contains(p.Emulator().Text(), "The output saved from the last session could not be read and was discarded.")
	})
	if got, _, err := st.LoadScrollback("p-dmg"); got != nil || err != nil {
		t.Fatalf("the damaged row should be deleted, got %q, %v", got, err)
	}
}
