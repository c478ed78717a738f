package secretstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Several keys live in one 0600 file; changing one keeps the others, and
// the file goes with the last token.
func TestFileKeepsTokensByKey(t *testing.T) {
	dir := t.TempDir()
	f := File{Path: filepath.Join(dir, "sub", "forge-tokens")}
	if tok, err := f.Get("a.example"); tok != "" || err != nil {
		t.Fatalf("empty store: %q, %v", tok, err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.Set("a.example", "tok-a"))
	must(f.Set("b.example:3000", "tok-b"))
	must(f.Set("a.example", "tok-a2"))
	if st, err := os.Stat(f.Path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v, %v", st, err)
	}
	if st, _ := os.Stat(filepath.Dir(f.Path)); st.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %o", st.Mode().Perm())
	}
	keys, err := f.Keys()
	if err != nil || strings.Join(keys, ",") != "b.example:3000,a.example" {
		t.Fatalf("keys %v, %v", keys, err)
	}
	if tok, _ := f.Get("a.example"); tok != "tok-a2" {
		t.Fatalf("a = %q", tok)
	}
	if err := f.Set("c", "with\ttab"); err == nil {
		t.Fatal("a token with a tab was kept")
	}
	must(f.Delete("a.example"))
	must(f.Delete("never.example"))
	if tok, _ := f.Get("b.example:3000"); tok != "tok-b" {
		t.Fatalf("b after deleting a = %q", tok)
	}
	must(f.Replace("c.example", "tok-c"))
	if keys, _ := f.Keys(); len(keys) != 1 || keys[0] != "c.example" {
		t.Fatalf("replace kept %v", keys)
	}
	must(f.Delete("c.example"))
	if _, err := os.Stat(f.Path); !os.IsNotExist(err) {
		t.Fatalf("the file stays without tokens: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(f.Path)); len(entries) != 0 {
		t.Fatalf("files left: %v", entries)
	}
	if !strings.Contains(f.Where(), f.Path) {
		t.Fatalf("Where %q", f.Where())
	}
}
