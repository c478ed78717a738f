package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/cli"
)

// One roff page per command plus osfoundry.1, each with its title, its
// sections, every flag its help page lists and its example; gzipped the
// same way twice.
func TestWritesAManPagePerCommand(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "osfoundry-gone.1.gz")
	os.WriteFile(stale, []byte("old"), 0o644)
	files, err := write(dir, "1.2.3", "2026-01-02", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("a page of a command that no longer exists was left behind")
	}
	var help bytes.Buffer
	cli.Run(&cli.Env{Stdin: strings.NewReader(""), Stdout: &help, Stderr: io.Discard}, []string{"help"})
	cmds := 0
	for _, line := range strings.Split(help.String(), "\n") {
		if name, ok := strings.CutPrefix(line, "  osfoundry "); ok {
			cmds++
			name, _, _ = strings.Cut(name, " ")
			roff := readGz(t, filepath.Join(dir, "osfoundry-"+name+".1.gz"))
			for _, want := range []string{`.TH "OSFOUNDRY-` + strings.ToUpper(name) + `" "1" "2026-01-02" "osfoundry 1.2.3"`,
				".SH NAME\nosfoundry-" + name + ` \- `, ".SH SYNOPSIS", ".SH EXAMPLE\n.EX\nosfoundry " + name, ".SH FILES", "/usr/share/doc/osfoundry/"} {
				if !strings.Contains(roff, want) {
					t.Errorf("osfoundry-%s.1 lacks %q:\n%s", name, want, roff)
				}
			}
			var page bytes.Buffer
			cli.Run(&cli.Env{Stdin: strings.NewReader(""), Stdout: &page, Stderr: io.Discard}, []string{"help", name})
			for _, l := range strings.Split(page.String(), "\n") {
				if f := strings.TrimSpace(l); strings.HasPrefix(f, "-") && !strings.Contains(roff, f) {
					t.Errorf("osfoundry-%s.1 lacks the flag %q its --help lists", name, f)
				}
			}
		}
	}
	if cmds < 10 || len(files) != cmds+1 {
		t.Fatalf("wrote %v for %d commands; want osfoundry.1.gz and one page per command", files, cmds)
	}
	main := readGz(t, filepath.Join(dir, "osfoundry.1.gz"))
	if !strings.Contains(main, `.TH "OSFOUNDRY" "1"`) || !strings.Contains(main, `\fBosfoundry-run\fP(1)`) {
		t.Errorf("osfoundry.1 lacks its title or the see-also of osfoundry-run:\n%s", main)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "osfoundry-run.1.gz"))
	write(dir, "1.2.3", "2026-01-02", true)
	again, _ := os.ReadFile(filepath.Join(dir, "osfoundry-run.1.gz"))
	if !bytes.Equal(first, again) {
		t.Errorf("the same pages gzipped to different bytes: packages would not be reproducible")
	}
}

func readGz(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(b)
}
