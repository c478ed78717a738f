package record

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
)

// Run is one recording pass: where fixtures go and what was written.
type Run struct {
	Out string // fixtures folder (backend/testkit/fixtures/testdata)
	// TmpRoot holds the agents' temp homes. A fixed path keeps the paths the
	// CLIs print and store (banner, project folder names) the same from one
	// re-record to the next, so a diff shows only what the CLI changed.
	TmpRoot string
	Log     func(format string, args ...any)
	// HelperExe is the recorder's own binary, run by Claude Code's hooks as
	// the pane helper (HelperArg); "" records no hook reports.
	HelperExe string

	mu    sync.Mutex
	files []string
}

// NewRun prepares a run writing into out.
func NewRun(out, tmpRoot string, log func(string, ...any)) (*Run, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("making fixtures folder: %w", err)
	}
	if log == nil {
		log = func(string, ...any) {}
	}
	return &Run{Out: out, TmpRoot: tmpRoot, Log: log}, nil
}

// Files lists the fixture files written, sorted.
func (r *Run) Files() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]string(nil), r.files...)
	sort.Strings(out)
	return out
}

func (r *Run) add(files ...string) {
	r.mu.Lock()
	r.files = append(r.files, files...)
	r.mu.Unlock()
}

// tempBase is a fresh, fixed folder for one recording.
func (r *Run) tempBase(name string) string {
	p := filepath.Join(r.TmpRoot, name)
	os.RemoveAll(p) //nolint:errcheck // fresh start; MkdirAll reports real problems
	os.MkdirAll(p, 0o700)
	return p
}

func (r *Run) cleanup(env *agentenv.Env) {
	if err := env.Cleanup(); err != nil {
		r.Log("warning: %v", err)
	}
}

// storeGlobs are the files, relative to HOME, that make up each CLI's
// session store: what the External agents reader parses.
var storeGlobs = map[string][]string{
	"claude": {".claude/projects", ".claude/history.jsonl", ".claude.json"},
	"codex": {".codex/sessions", ".codex/state_*.sqlite*", ".codex/history.jsonl",
		".codex/session_index.jsonl"},
	"qwen":     {".qwen/projects", ".qwen/tmp"},
	"gemini":   {".gemini/tmp", ".gemini/history"},
	"opencode": {".local/share/opencode"},
	"copilot":  {".copilot/session-state", ".copilot/history-session-state", ".copilot/session-store.db*"},
}

// copyStores copies the session store the CLI wrote in its temp home to
// <out>/stores/<name>/ (same relative paths), replacing an older copy.
// Nothing is sanitised: the homes are temp folders holding only fake data.
func (r *Run) copyStores(name string, env *agentenv.Env) error {
	dst := filepath.Join(r.Out, "stores", name)
	if err := os.RemoveAll(dst); err != nil {
		return fmt.Errorf("clearing %s: %w", dst, err)
	}
	n := 0
	for _, g := range storeGlobs[env.Agent] {
		matches, _ := filepath.Glob(filepath.Join(env.Home, g))
		for _, m := range matches {
			err := filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(env.Home, p)
				n++
				r.add(filepath.ToSlash(filepath.Join("stores", name, rel)))
				return copyFile(p, filepath.Join(dst, rel))
			})
			if err != nil {
				return fmt.Errorf("copying %s store: %w", env.Agent, err)
			}
		}
	}
	if n == 0 {
		return fmt.Errorf("copying %s store: the CLI wrote none of %s in %s", env.Agent,
			strings.Join(storeGlobs[env.Agent], ", "), env.Home)
	}
	r.Log("  %-48s %7d files", "stores/"+name+"/", n)
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// WriteFixture writes one fixture file (headless streams) and records it.
func (r *Run) WriteFixture(name string, data []byte) error {
	if err := os.WriteFile(filepath.Join(r.Out, name), data, 0o644); err != nil {
		return fmt.Errorf("writing fixture %s: %w", name, err)
	}
	r.add(name)
	r.Log("  %-48s %7d bytes", name, len(data))
	return nil
}
