package inventory

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	_ "modernc.org/sqlite" // the "sqlite" driver, pure Go
)

// Env is where the adapters look: a home folder and environment variables,
// both injected so tests and benchmarks never touch this machine's stores.
type Env struct {
	Home   string
	GOOS   string
	Getenv func(string) string
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func (e Env) goos() string {
	if e.GOOS == "" {
		return runtime.GOOS
	}
	return e.GOOS
}

// appSupport is the per-user application data folder of desktop apps
// (Electron's userData parent): ~/Library/Application Support on macOS,
// %APPDATA% on Windows, ~/.config elsewhere.
func (e Env) appSupport() string {
	switch e.goos() {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support")
	case "windows":
		if v := e.getenv("APPDATA"); v != "" {
			return v
		}
		return filepath.Join(e.Home, "AppData", "Roaming")
	default:
		if v := e.getenv("XDG_CONFIG_HOME"); v != "" {
			return v
		}
		return filepath.Join(e.Home, ".config")
	}
}

// dataHome is XDG_DATA_HOME (~/.local/share), which OpenCode, Kiro CLI and
// Devin CLI use on every OS except where noted by the adapter.
func (e Env) dataHome() string {
	if v := e.getenv("XDG_DATA_HOME"); v != "" {
		return v
	}
	return filepath.Join(e.Home, ".local", "share")
}

// Unit is one file (or database) whose identity decides whether its
// sessions must be read again: same path, size and mtime means same result.
type Unit struct {
	Path    string
	Size    int64
	MtimeNs int64
}

// Adapter reads one app's store (some stores serve two apps: Codex CLI and
// Codex app share ~/.codex).
type Adapter interface {
	// Apps are the app ids this adapter reports.
	Apps() []AppID
	// Roots are the folders to watch; a missing root costs one stat.
	Roots(env Env) []string
	// Units lists the store's files with their identity, stat only.
	Units(ctx context.Context, env Env) ([]Unit, error)
	// Read parses one unit into sessions.
	Read(ctx context.Context, env Env, u Unit) ([]Session, error)
	// Transcript reads one page of a session's conversation.
	Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error)
}

// merger is implemented by adapters whose units overlap (a Codex thread is
// both a row of the state DB and a rollout file).
type merger interface {
	Merge(sessions []Session) []Session
}

// adapters is the registry, one per store.
func adapters() []Adapter {
	return []Adapter{claudeCode{}, claudeApp{}, codexStore{}, geminiCLI{}, qwenCode{},
		openCode{}, copilotCLI{}, cursorIDE{}, devinCLI{}, antigravityStore{}, kiroStore{}}
}

// statUnit returns the identity of a regular file, following a symlink to
// it, or false.
func statUnit(path string) (Unit, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return Unit{}, false
	}
	return Unit{Path: path, Size: st.Size(), MtimeNs: st.ModTime().UnixNano()}, true
}

// listFiles returns the regular files directly in dir whose names match keep.
// Symlinked folders are not entered, so a symlink loop cannot trap a scan.
func listFiles(dir string, keep func(name string) bool) []Unit {
	f, err := openDir(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	ents, _ := f.ReadDir(-1) // unsorted: see readDirUnsorted
	st := newDirStatter(f, dir)
	out := make([]Unit, 0, len(ents))
	for _, e := range ents {
		name := e.Name()
		if !keep(name) {
			continue
		}
		t := e.Type()
		if t.IsDir() || (t&fs.ModeType != 0 && t&fs.ModeSymlink == 0) {
			continue // FIFOs, sockets, devices
		}
		// A symlinked transcript is followed; a vanished one is skipped.
		size, mtime, ok := st.stat(name, t&fs.ModeSymlink != 0)
		if !ok {
			continue
		}
		out = append(out, Unit{Path: filepath.Join(dir, name), Size: size, MtimeNs: mtime})
	}
	return out
}

// listFilesIn lists the matching files of many folders. The folders are
// spread over a few goroutines: a warm refresh is one stat per transcript,
// and those system calls overlap well on a multi-core machine.
func listFilesIn(ctx context.Context, dirs []string, keep func(name string) bool) ([]Unit, error) {
	parts := make([][]Unit, len(dirs))
	workers := min(runtime.GOMAXPROCS(0), 4, len(dirs)/8)
	if workers <= 1 {
		for i, d := range dirs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			parts[i] = listFiles(d, keep)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for ctx.Err() == nil {
					i := int(next.Add(1) - 1)
					if i >= len(dirs) {
						return
					}
					parts[i] = listFiles(dirs[i], keep)
				}
			})
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]Unit, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, nil
}

// readDirUnsorted lists a folder in directory order: os.ReadDir's sort is
// a measurable share of a warm refresh over thousands of transcripts, and
// the index sorts sessions itself.
func readDirUnsorted(dir string) []fs.DirEntry {
	f, err := openDir(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	ents, _ := f.ReadDir(-1)
	return ents
}

// openDir opens a folder to list it. os.Open would take it for a file that
// might be polled and switch it to non-blocking and back around a refused
// poller registration: four system calls per folder, which a listing of
// dozens of project and date folders repeats on every refresh.
func openDir(dir string) (*os.File, error) { return os.OpenFile(dir, readFlags, 0) }

// listDirs returns the real (non-symlink) sub-folders of dir.
func listDirs(dir string) []string {
	ents := readDirUnsorted(dir)
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// isDir reports a folder (following a symlink at the root, which people use
// to move ~/.claude elsewhere).
func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// openImmutable opens another app's SQLite file read-only with immutable=1:
// SQLite then takes no locks and creates no -shm/-wal files, so it neither
// blocks nor is blocked by the app holding the database open for writing,
// and nothing is written next to the app's files. The cost is that commits
// still in the app's WAL are not seen until it checkpoints; each adapter
// states how it covers that gap.
func openImmutable(path string) (*sql.DB, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("opening %s: not a regular file", path)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	dsn := u.String() + "?mode=ro&immutable=1"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// columns returns the column names of table (empty when it does not exist).
func columns(ctx context.Context, db *sql.DB, table string) (map[string]bool, error) {
	rows, err := db.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out[n] = true
	}
	return out, rows.Err()
}

// pick returns the first of names that cols has, or "".
func pick(cols map[string]bool, names ...string) string {
	for _, n := range names {
		if cols[n] {
			return n
		}
	}
	return ""
}

// fileURIPath turns "file:///Users/a/x" into "/Users/a/x"; other strings pass.
func fileURIPath(s string) string {
	if !strings.HasPrefix(s, "file://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	p := u.Path
	if len(p) > 2 && p[0] == '/' && p[2] == ':' { // file:///C:/x on Windows
		p = p[1:]
	}
	return filepath.FromSlash(p)
}
