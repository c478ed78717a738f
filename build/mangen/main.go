// Command mangen writes the man pages of the osfoundry command line —
// osfoundry.1 and osfoundry-CMD.1 for every command — from the same help
// pages `osfoundry CMD --help` prints (backend/cli), so the two never
// differ. build/scripts/package-linux.sh runs it; the .deb and .rpm
// install its output into /usr/share/man/man1. It never ships.
//
//	go run ./build/mangen -out build/gen/man -version 1.2.0 -gzip
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/cpuguy83/go-md2man/v2/md2man"
	"github.com/osfoundry/desktop/backend/cli"
)

func main() {
	out := flag.String("out", "build/gen/man", "folder to write the pages into (emptied of old pages first)")
	version := flag.String("version", cli.Version, "version the pages name")
	date := flag.String("date", "", "date the pages carry, YYYY-MM-DD (default: SOURCE_DATE_EPOCH, else today)")
	gz := flag.Bool("gzip", false, "write NAME.1.gz, as Debian and Fedora install man pages")
	flag.Parse()
	if *date == "" {
		*date = buildDate()
	}
	files, err := write(*out, *version, *date, *gz)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mangen:", err)
		os.Exit(1)
	}
	fmt.Printf("mangen: wrote %d man pages into %s\n", len(files), *out)
}

// buildDate is SOURCE_DATE_EPOCH's day when set (reproducible builds),
// else today's.
func buildDate() string {
	t := time.Now()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		var sec int64
		if _, err := fmt.Sscan(s, &sec); err == nil {
			t = time.Unix(sec, 0)
		}
	}
	return t.UTC().Format(time.DateOnly)
}

// write renders every page into dir and returns the file names written.
func write(dir, version, date string, gz bool) ([]string, error) {
	old, _ := filepath.Glob(filepath.Join(dir, "osfoundry*.1*"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return nil, fmt.Errorf("removing an old page: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	pages := cli.ManPages(version, date)
	names := make([]string, 0, len(pages))
	for name := range pages {
		names = append(names, name)
	}
	sort.Strings(names)
	var written []string
	for _, name := range names {
		roff := md2man.Render([]byte(pages[name]))
		if gz {
			var b bytes.Buffer
			// No name or time in the gzip header: the same pages make the same bytes.
			w := gzip.NewWriter(&b)
			if _, err := w.Write(roff); err != nil {
				return nil, fmt.Errorf("compressing %s: %w", name, err)
			}
			if err := w.Close(); err != nil {
				return nil, fmt.Errorf("compressing %s: %w", name, err)
			}
			roff, name = b.Bytes(), name+".gz"
		}
		if err := os.WriteFile(filepath.Join(dir, name), roff, 0o644); err != nil {
			return nil, fmt.Errorf("writing %s: %w", name, err)
		}
		written = append(written, name)
	}
	return written, nil
}
