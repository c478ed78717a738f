package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Bounds of code_search: a model asking for "e" in a monorepo must get a
// useful answer quickly, not a megabyte.
const (
	codeSearchMaxFileBytes = 2 << 20 // larger files are skipped
	codeSearchMaxMatches   = 200
	codeSearchMaxFiles     = 50_000 // files visited before giving up
	codeSearchLineChars    = 240
	codeSearchMaxQuery     = 1000
)

// Folders never searched: version-control internals and dependency caches
// are noise for a model and often huge.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true}

// CodeMatch is one matching line.
type CodeMatch struct {
	Path string `json:"path"` // relative to the run's folder, slash-separated
	Line int    `json:"line"`
	Text string `json:"text"`
}

// CodeSearchTool is code_search: text search in the run's folder (bound per
// run through Call.Folder, never taken from the arguments).
func CodeSearchTool() Tool {
	return Tool{
		Meta: Meta{
			Name:        "code_search",
			Description: "Search text in the files of this run's folder. Case-insensitive literal match by default; set regex for an RE2 regular expression. Skips .git, node_modules, binary files and files over 2 MB.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"query":{"type":"string","description":"text (or regular expression) to find"},` +
				`"regex":{"type":"boolean","description":"treat query as an RE2 regular expression"},` +
				`"case_sensitive":{"type":"boolean"},` +
				`"glob":{"type":"string","description":"only files whose name matches, e.g. *.go"},` +
				`"limit":{"type":"integer","minimum":1,"maximum":200,"description":"most matches; default 50"}},` +
				`"required":["query"]}`),
			ReadOnly: true, Scope: ScopeRead, Unattended: true,
		},
		Handler: codeSearch,
	}
}

func codeSearch(ctx context.Context, c Call) (Result, error) {
	var a struct {
		Query         string `json:"query"`
		Regex         bool   `json:"regex"`
		CaseSensitive bool   `json:"case_sensitive"`
		Glob          string `json:"glob"`
		Limit         int    `json:"limit"`
	}
	if msg := decodeArgs(c.Args, &a); msg != "" {
		return ErrorResult(msg), nil
	}
	if a.Query == "" || len(a.Query) > codeSearchMaxQuery {
		return ErrorResult(fmt.Sprintf("query must be 1–%d characters", codeSearchMaxQuery)), nil
	}
	if a.Glob != "" {
		if _, err := filepath.Match(a.Glob, "x"); err != nil {
			return ErrorResult("invalid glob " + a.Glob + ": " + err.Error()), nil
		}
	}
	if a.Limit <= 0 {
		a.Limit = 50
	}
	a.Limit = min(a.Limit, codeSearchMaxMatches)
	root, msg := runFolder(c.Folder)
	if msg != "" {
		return ErrorResult(msg), nil
	}
	match, msg := matcher(a.Query, a.Regex, a.CaseSensitive)
	if msg != "" {
		return ErrorResult(msg), nil
	}

	matches := []CodeMatch{}
	files, truncated := 0, false
	errStop := errors.New("stop")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are skipped, not fatal
		}
		if d.IsDir() {
			if p != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() { // symlinks may leave the folder
			return nil
		}
		if a.Glob != "" {
			if ok, _ := filepath.Match(a.Glob, d.Name()); !ok {
				return nil
			}
		}
		if files++; files > codeSearchMaxFiles {
			truncated = true
			return errStop
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		full := searchFile(p, filepath.ToSlash(rel), match, a.Limit-len(matches), &matches)
		if full {
			truncated = true
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return Result{}, fmt.Errorf("searching %s: %w", root, err)
	}
	out := map[string]any{"matches": matches, "count": len(matches), "truncated": truncated}
	return JSONResult(out), nil
}

// matcher compiles the query into a line predicate.
func matcher(q string, isRegex, caseSensitive bool) (func([]byte) bool, string) {
	if isRegex {
		if !caseSensitive {
			q = "(?i)" + q
		}
		re, err := regexp.Compile(q)
		if err != nil {
			return nil, "invalid regular expression: " + err.Error()
		}
		return re.Match, ""
	}
	if caseSensitive {
		needle := []byte(q)
		return func(l []byte) bool { return bytes.Contains(l, needle) }, ""
	}
	needle := bytes.ToLower([]byte(q))
	return func(l []byte) bool { return bytes.Contains(bytes.ToLower(l), needle) }, ""
}

// searchFile appends matches of one file; it reports true when room ran out.
func searchFile(path, rel string, match func([]byte) bool, room int, out *[]CodeMatch) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() > codeSearchMaxFileBytes {
		return false
	}
	br := bufio.NewReaderSize(f, 64<<10)
	if head, _ := br.Peek(8000); isBinary(head) {
		return false
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 64<<10), codeSearchMaxFileBytes+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if !match(line) {
			continue
		}
		if room <= 0 {
			return true
		}
		*out = append(*out, CodeMatch{Path: rel, Line: n, Text: clipLine(line)})
		room--
	}
	return false
}

// isBinary uses git's rule: a NUL byte in the first 8,000 bytes.
func isBinary(head []byte) bool { return bytes.IndexByte(head, 0) >= 0 }

func clipLine(l []byte) string {
	s := strings.TrimRight(string(l), "\r")
	if len(s) > codeSearchLineChars {
		s = strings.ToValidUTF8(s[:codeSearchLineChars], "") + "…"
	}
	return s
}

// runFolder checks the run's bound folder.
func runFolder(folder string) (string, string) {
	if folder == "" {
		return "", "this run has no folder; code tools need a run started in a local folder (Settings → Local Folders)"
	}
	root, err := filepath.EvalSymlinks(folder)
	if err != nil {
		return "", "the run's folder is not readable: " + err.Error()
	}
	return root, ""
}

// insideFolder resolves a model-supplied path against the run's folder and
// refuses anything that leaves it, symlinks included.
func insideFolder(folder, p string) (string, string) {
	root, msg := runFolder(folder)
	if msg != "" {
		return "", msg
	}
	if strings.TrimSpace(p) == "" {
		return "", "path is empty; pass a file path relative to the run's folder"
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", "no such file in the run's folder: " + p
		}
		return "", "cannot read " + p + ": " + err.Error()
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "path " + p + " is outside the run's folder; only files inside it can be read"
	}
	return real, ""
}
