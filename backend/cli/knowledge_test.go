package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/appdir"
)

func TestKnowledgeCommands(t *testing.T) {
	t.Setenv(appdir.EnvHome, t.TempDir())
	_, ws, _ := runCLI(t, "notes", "workspace-create", "Team")
	ws = strings.TrimSpace(ws)
	_, proj, _ := runCLI(t, "notes", "project-create", ws, "Support")
	proj = strings.TrimSpace(proj)

	code, kb, errs := runCLI(t, "knowledge", "create", ws, "Support answers", "--project", proj)
	kb = strings.TrimSpace(kb)
	if code != 0 || !strings.HasPrefix(kb, "kb") || strings.Contains(kb, "\n") {
		t.Fatalf("create: %d %q %s", code, kb, errs)
	}
	file := filepath.Join(t.TempDir(), "refunds.md")
	if err := os.WriteFile(file, []byte("Refunds are paid within 14 days."), 0o600); err != nil {
		t.Fatal(err)
	}
	code, art, errs := runCLI(t, "knowledge", "add", kb, "--title", "Refunds", "--file", file)
	art = strings.TrimSpace(art)
	if code != 0 || !strings.HasPrefix(art, "art") {
		t.Fatalf("add: %d %q %s", code, art, errs)
	}
	// From stdin, replacing the article.
	var out, errb bytes.Buffer
	code = Run(&Env{Stdin: strings.NewReader("Refunds within 30 days."), Stdout: &out, Stderr: &errb},
		[]string{"knowledge", "add", kb, "--article", art, "--title", "Refund policy", "--file", "-"})
	if code != 0 || strings.TrimSpace(out.String()) != art {
		t.Fatalf("replace from stdin: %d %q %s", code, out.String(), errb.String())
	}

	steps := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"list bases", []string{"knowledge", "list"}, 0, "Support answers"},
		{"list articles", []string{"knowledge", "list", kb}, 0, "Refund policy"},
		{"list shows the author", []string{"knowledge", "list", kb}, 0, "command line"},
		{"show", []string{"knowledge", "show", kb, art}, 0, "Refunds within 30 days."},
		{"search", []string{"knowledge", "search", kb, "refund"}, 0, art},
		{"unknown base", []string{"knowledge", "list", "kb-nope"}, 1, "not found"},
		{"no title", []string{"knowledge", "add", kb, "--file", file}, 1, "want KB, --title and --file"},
		{"missing file", []string{"knowledge", "add", kb, "--title", "X", "--file", "/no/such/file.md"}, 1, "reading /no/such/file.md"},
		{"unknown project", []string{"knowledge", "create", ws, "X", "--project", "nope"}, 1, "not found"},
		{"unknown subcommand", []string{"knowledge", "drop"}, 2, "known: create"},
	}
	for _, c := range steps {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, c.args...)
			if code != c.code || !strings.Contains(out+errs, c.contains) {
				t.Fatalf("code %d (want %d), output %s %s; want it to contain %q", code, c.code, out, errs, c.contains)
			}
		})
	}
	big := filepath.Join(t.TempDir(), "big.md")
	if err := os.WriteFile(big, bytes.Repeat([]byte("x"), 1<<20+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "knowledge", "add", kb, "--title", "Big", "--file", big); code != 1 || !strings.Contains(errs, "at most 1048576 bytes") {
		t.Fatalf("oversized article: %d %s", code, errs)
	}
}
