package notes

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

const draftHelperEnv = "OSFOUNDRY_DRAFT_HELPER"

// typedDraft is the editor's text draft after the person typed n keys.
func typedDraft(n int) string {
	b, _ := json.Marshal(map[string]any{"kind": "text", "base": "first line", "baseVersion": 1,
		"mine": "first line\n" + strings.Repeat("x", n), "savedAt": n})
	return string(b)
}

// TestDraftHelperProcess is the app in the crash test: it keeps the draft
// through the binding the editor calls, once per "key press", and says so
// after each call returns, until it is killed.
func TestDraftHelperProcess(t *testing.T) {
	if os.Getenv(draftHelperEnv) == "" {
		t.Skip("helper process only")
	}
	db, err := store.Open(os.Getenv("OSFOUNDRY_NOTES_DB"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	s, err := Open(db, "")
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	b := NewBinding(s, nil)
	for i := 1; ; i++ {
		if err := b.SaveDraft("note-1", os.Getenv(draftHelperEnv), typedDraft(i)); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("ok", i)
	}
}

func TestDraftSurvivesSIGKILL(t *testing.T) {
	f := newFixture(t, Options{})
	path := filepath.Join(f.dir, store.FileName)
	f.s.DB().Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDraftHelperProcess$")
	cmd.Env = append(os.Environ(), draftHelperEnv+"="+f.tab, "OSFOUNDRY_NOTES_DB="+path)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	out := bufio.NewScanner(pipe)
	acked := 0
	for acked < 200 && out.Scan() {
		if _, err := fmt.Sscanf(out.Text(), "ok %d", &acked); err != nil {
			t.Fatalf("draft writer: %s", out.Text())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	s, err := Open(db, "")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := NewBinding(s, nil).Drafts()
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].OwnerID != "note-1" || ds[0].ItemID != f.tab {
		t.Fatalf("after the kill the drafts are %+v, want the one of note-1/%s", ds, f.tab)
	}
	var d struct {
		Kind, Base, Mine string
		BaseVersion      int64
	}
	if err := json.Unmarshal([]byte(ds[0].Data), &d); err != nil {
		t.Fatalf("the kept draft is not the editor's JSON: %v", err)
	}
	// Every acknowledged key press is in it (one more may have committed
	// between the last line read and the kill).
	if typed := len(d.Mine) - len("first line\n"); d.Kind != "text" || d.Base != "first line" || d.BaseVersion != 1 || typed < acked {
		t.Fatalf("the draft holds %d typed keys of %d acknowledged (kind %q, base %q, version %d)", typed, acked, d.Kind, d.Base, d.BaseVersion)
	}
}

func TestDraftsKeptReplacedAndDiscarded(t *testing.T) {
	f := newFixture(t, Options{})
	b := NewBinding(f.s, nil)
	if err := b.SaveDraft("note-1", f.tab, typedDraft(1)); err != nil {
		t.Fatal(err)
	}
	if err := b.SaveDraft("note-1", f.tab, typedDraft(2)); err != nil {
		t.Fatal(err)
	}
	if err := b.SaveDraft("kb-1", "article-1", `{"kind":"text","mine":"a"}`); err != nil {
		t.Fatal(err)
	}
	ds, err := b.Drafts()
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].Data != typedDraft(2) || ds[1].OwnerID != "kb-1" {
		t.Fatalf("drafts = %+v, want note-1's second draft and kb-1's", ds)
	}
	if err := b.DiscardDraft("note-1", f.tab); err != nil {
		t.Fatal(err)
	}
	if err := b.DiscardDraft("note-1", "no-such-tab"); err != nil {
		t.Fatalf("discarding a draft that is not kept: %v", err)
	}
	if _, err := f.s.GetDraft(t.Context(), "note-1", f.tab); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a discarded draft reads as %v, want ErrNotFound", err)
	}
	if ds, _ := b.Drafts(); len(ds) != 1 || ds[0].ItemID != "article-1" {
		t.Fatalf("after discarding, drafts = %+v", ds)
	}
}

func TestDraftRefusesBadInput(t *testing.T) {
	f := newFixture(t, Options{})
	b := NewBinding(f.s, nil)
	for name, c := range map[string]struct{ owner, item, data, want string }{
		"no note":     {"", f.tab, `{}`, "names no Note"},
		"not json":    {"note-1", f.tab, `{"kind":`, "JSON object"},
		"not object":  {"note-1", f.tab, `"text"`, "JSON object"},
		"too large":   {"note-1", f.tab, `{"mine":"` + strings.Repeat("x", MaxDraftBytes) + `"}`, "save the text"},
		"blank owner": {"  ", "t", `{}`, "names no Note"},
	} {
		err := b.SaveDraft(c.owner, c.item, c.data)
		if !errors.Is(err, ErrBadDraft) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrBadDraft saying %q", name, err, c.want)
		}
	}
	if ds, _ := b.Drafts(); len(ds) != 0 {
		t.Fatalf("refused drafts were kept: %d", len(ds))
	}
}
