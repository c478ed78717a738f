package board

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The summary viewer reads a summary the board wrote, and nothing else:
// not a file beside the summaries, not one reached through a link.
func TestReadSummaryOnlyReadsSummaries(t *testing.T) {
	kn := t.TempDir()
	b := New(kn, nil)
	b.Add("terminal", newFake(Idle))
	svc := NewService(b, nil)
	path, err := svc.End("terminal/p-1")
	if err != nil {
		t.Fatal(err)
	}
	md, err := svc.ReadSummary(path)
	if err != nil || !strings.HasPrefix(md, "# fix the login bug") {
		t.Fatalf("ReadSummary(%s) = %q, %v", path, md, err)
	}
	secret := filepath.Join(kn, "secret.md")
	os.WriteFile(secret, []byte("not a summary"), 0o600)
	link := filepath.Join(kn, SummaryDir, "link.md")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	txt := filepath.Join(kn, SummaryDir, "notes.txt")
	os.WriteFile(txt, []byte("x"), 0o600)
	for _, p := range []string{secret, link, txt, filepath.Join(kn, SummaryDir, "..", "secret.md"), "relative.md"} {
		if _, err := svc.ReadSummary(p); !errors.Is(err, ErrNotSummary) {
			t.Errorf("ReadSummary(%s) = %v, want ErrNotSummary", p, err)
		}
	}
}

func TestReadSummarySaysWhenItIsGone(t *testing.T) {
	kn := t.TempDir()
	os.MkdirAll(filepath.Join(kn, SummaryDir), 0o700)
	svc := NewService(New(kn, nil), nil)
	if _, err := svc.ReadSummary(filepath.Join(kn, SummaryDir, "gone.md")); !errors.Is(err, ErrSummaryGone) {
		t.Errorf("reading a deleted summary = %v, want ErrSummaryGone", err)
	}
}

func TestServiceClear(t *testing.T) {
	b := New(t.TempDir(), nil)
	b.Add("terminal", newFake(Idle))
	svc := NewService(b, nil)
	if err := svc.Clear("terminal/p-1"); !errors.Is(err, ErrNotFinished) {
		t.Errorf("clearing an idle card = %v", err)
	}
	if _, err := svc.End("terminal/p-1"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Clear("terminal/p-1"); err != nil {
		t.Fatal(err)
	}
	if n := len(svc.Cards()); n != 0 {
		t.Errorf("%d cards after clearing the only one", n)
	}
}
