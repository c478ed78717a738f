package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/osfoundry/desktop/backend/inventory"
)

// referenceIndex is the reference article's indexer design run on this machine, the
// yardstick of the cold index: for every Claude Code transcript (sub-agent
// files skipped) the head — the first 80 lines, each at most 256 KiB — and
// the tail — the last 512 KiB — and for every Codex rollout its first line,
// one file after another. With parse false it only reads those bytes (the
// design's I/O floor, which no parser can go under); with parse true it
// decodes every line into generic maps, as the article's own indexer did with
// json.loads. It returns how many files it read.
func referenceIndex(home string, parse bool) (int, error) {
	var files []string
	claude, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
	for _, p := range claude {
		if !strings.HasPrefix(filepath.Base(p), "agent-") {
			files = append(files, p)
		}
	}
	var rollouts []string
	filepath.WalkDir(filepath.Join(home, ".codex"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "rollout-") && strings.HasSuffix(p, ".jsonl") {
			rollouts = append(rollouts, p)
		}
		return nil
	})
	decode := func(line []byte) {
		if parse {
			var v map[string]any
			_ = json.Unmarshal(line, &v)
		}
	}
	for _, p := range files {
		if err := referenceHeadTail(p, inventory.HeadLines, decode); err != nil {
			return 0, err
		}
	}
	for _, p := range rollouts {
		if err := referenceHeadTail(p, 1, decode); err != nil {
			return 0, err
		}
	}
	return len(files) + len(rollouts), nil
}

// referenceHeadTail reads the first lines of p and, for a transcript (more
// than one head line asked), its last TailBytes, passing every line to fn.
func referenceHeadTail(p string, lines int, fn func([]byte)) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("reference index: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), inventory.LineCap)
	for i := 0; i < lines && sc.Scan(); i++ {
		fn(sc.Bytes())
	}
	if lines == 1 {
		return nil
	}
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("reference index: %w", err)
	}
	n := min(st.Size(), inventory.TailBytes)
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, st.Size()-n); err != nil && err != io.EOF {
		return fmt.Errorf("reference index: %w", err)
	}
	first := true
	for line := range bytes.SplitSeq(tail, []byte{'\n'}) {
		if !first && len(line) > 0 { // the first piece is a cut line
			fn(line)
		}
		first = false
	}
	return nil
}
