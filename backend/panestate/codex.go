package panestate

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
)

// Codex has no hook that names its conversation, but it writes each one to
// a rollout file, $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl,
// whose first record (session_meta) holds the id and the folder, and keeps
// the file open while the conversation runs. The pane's conversation is the
// rollout a process of the pane holds open (Linux, `codex --no-daemon`);
// otherwise the rollout Codex's app-server daemon created for the pane's
// folder since the pane started (codexthread.go).

// codexScanGap bounds how often one pane's rollouts are looked for.
const codexScanGap = time.Second

// codexPanes tracks the panes whose conversation is found from the files
// their agent writes: codex, and claude run with the user's own --settings
// (no hooks of ours report its session then).
type codexPanes struct {
	mu      sync.Mutex
	find    map[string]func(*terminal.Pane) (terminal.Session, bool) // pane → where to look
	last    map[string]time.Time                                     // pane → last look
	pending map[string]bool                                          // pane → a look is scheduled
	claim   map[string]string                                        // rollout file → pane
	codex   map[string]bool                                          // panes started as codex
}

// codexHome is the CODEX_HOME a pane with env uses (nil env: the app's).
func codexHome(env []string) string {
	get := envGetter(env)
	if h := get("CODEX_HOME"); h != "" {
		return h
	}
	home := get("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".codex")
}

// envGetter reads variables from env (nil: the app's own environment).
func envGetter(env []string) func(string) string {
	if env == nil {
		return os.Getenv
	}
	return func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
}

// watchCodex starts looking for the conversation of a pane started as
// codex (called from the launch hook, which knows the pane's environment).
func (w *Watcher) watchCodex(id string, env []string) {
	sessions := filepath.Join(codexHome(env), "sessions")
	w.watchFiles(id, func(p *terminal.Pane) (terminal.Session, bool) { return w.findCodexSession(p, sessions) })
	w.codex.mu.Lock()
	w.codex.codex[id] = true
	w.codex.mu.Unlock()
}

// watchClaude starts looking for the transcript of a pane started as
// claude without the app's hooks.
func (w *Watcher) watchClaude(id string, env []string) {
	folder := ""
	w.watchFiles(id, func(p *terminal.Pane) (terminal.Session, bool) {
		if folder == "" {
			folder = claudeProjectDir(env, p.Dir())
		}
		return transcriptFor(folder, p.Started(), time.Now(), w.takenBy(p.ID()))
	})
}

func (w *Watcher) watchFiles(id string, find func(*terminal.Pane) (terminal.Session, bool)) {
	w.codex.mu.Lock()
	defer w.codex.mu.Unlock()
	if w.codex.find == nil {
		w.codex.find, w.codex.last, w.codex.claim = map[string]func(*terminal.Pane) (terminal.Session, bool){}, map[string]time.Time{}, map[string]string{}
		w.codex.pending, w.codex.codex = map[string]bool{}, map[string]bool{}
	}
	w.codex.find[id] = find
}

// takenBy reports the files another pane than id claimed.
func (w *Watcher) takenBy(id string) func(string) bool {
	return func(f string) bool {
		w.codex.mu.Lock()
		defer w.codex.mu.Unlock()
		owner, claimed := w.codex.claim[f]
		return claimed && owner != id
	}
}

// forgetCodex drops a closed pane.
func (w *Watcher) forgetCodex(id string) {
	w.codex.mu.Lock()
	defer w.codex.mu.Unlock()
	delete(w.codex.find, id)
	delete(w.codex.last, id)
	delete(w.codex.pending, id)
	delete(w.codex.codex, id)
	for f, p := range w.codex.claim {
		if p == id {
			delete(w.codex.claim, f)
		}
	}
}

// lookForCodexSession looks, off the detection goroutine, for the
// conversation of a codex pane whose state just changed (a turn started
// or ended: the rollout exists from the first message on).
func (w *Watcher) lookForCodexSession(id string) {
	w.codex.mu.Lock()
	find, ok := w.codex.find[id]
	if !ok || w.codex.pending[id] {
		w.codex.mu.Unlock()
		return
	}
	// One look at a time per pane, at most one per codexScanGap, and the
	// last change always gets one (the turn that just ended wrote it).
	w.codex.pending[id] = true
	wait := codexScanGap - time.Since(w.codex.last[id])
	w.codex.mu.Unlock()
	time.AfterFunc(max(wait, 0), func() {
		w.codex.mu.Lock()
		w.codex.pending[id] = false
		w.codex.last[id] = time.Now()
		w.codex.mu.Unlock()
		p, err := w.mgr.Get(id)
		if err != nil {
			return
		}
		if s, ok := find(p); ok {
			w.onCodexSession(id, s)
		}
	})
}

func (w *Watcher) onCodexSession(id string, s terminal.Session) {
	w.codex.mu.Lock()
	w.codex.claim[s.File] = id
	w.codex.mu.Unlock()
	w.mgr.SetSession(id, s)
}

// findCodexSession finds the rollout of pane p under sessions.
func (w *Watcher) findCodexSession(p *terminal.Pane, sessions string) (terminal.Session, bool) {
	if files, ok := openFiles(p.Pid(), sessions); ok && len(files) > 0 {
		// `codex --no-daemon` keeps its rollout open itself. The newest
		// open rollout is the conversation now (after /new the old one may
		// still be open a moment).
		sort.Slice(files, func(i, j int) bool { return modTime(files[i]).After(modTime(files[j])) })
		for _, f := range files {
			if id, _, ok := readRolloutMeta(f); ok && strings.HasPrefix(filepath.Base(f), "rollout-") {
				return terminal.Session{ID: id, File: f}, true
			}
		}
	}
	// Codex's app-server daemon holds it (codexthread.go).
	view := paneView{dir: p.Dir(), started: p.Started(), screen: p.Emulator().Text()}
	return codexThreadFor(sessions, view, time.Now(), w.takenBy(p.ID()), w.otherCodexDirs(p.ID()))
}

// otherCodexDirs are the folders of the panes other than id whose Codex
// conversation is looked for.
func (w *Watcher) otherCodexDirs(id string) []string {
	w.codex.mu.Lock()
	var ids []string
	for other := range w.codex.find {
		if other != id && w.codex.codex[other] {
			ids = append(ids, other)
		}
	}
	w.codex.mu.Unlock()
	var dirs []string
	for _, o := range ids {
		if p, err := w.mgr.Get(o); err == nil {
			dirs = append(dirs, p.Dir())
		}
	}
	return dirs
}

func sameDir(d string) string {
	if r, err := filepath.EvalSymlinks(d); err == nil {
		return r
	}
	return filepath.Clean(d)
}

func modTime(f string) time.Time {
	st, err := os.Stat(f)
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// readRolloutMeta reads the conversation id and folder from a rollout's
// first record.
func readRolloutMeta(path string) (id, cwd string, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	// The first record carries the model's whole instructions: tens of KB.
	line, err := bufio.NewReaderSize(io.LimitReader(f, 4<<20), 64<<10).ReadBytes('\n')
	if err != nil {
		return "", "", false
	}
	var rec struct {
		Type    string `json:"type"`
		Payload struct {
			ID  string `json:"id"`
			Cwd string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &rec) != nil || rec.Type != "session_meta" || !validSessionID(rec.Payload.ID) {
		return "", "", false
	}
	return rec.Payload.ID, rec.Payload.Cwd, true
}

// claudeProjectDir is the folder where Claude Code keeps the transcripts of
// conversations in dir: $CLAUDE_CONFIG_DIR (or ~/.claude)/projects/ and
// the path with every character but letters and digits made a dash.
func claudeProjectDir(env []string, dir string) string {
	get := envGetter(env)
	root := get("CLAUDE_CONFIG_DIR")
	if root == "" {
		home := get("HOME")
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		root = filepath.Join(home, ".claude")
	}
	var b strings.Builder
	for _, r := range dir {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return filepath.Join(root, "projects", b.String())
}

// transcriptFor is the newest Claude Code transcript (<id>.jsonl) in folder
// written between started and now that no other pane took.
func transcriptFor(folder string, started, now time.Time, taken func(string) bool) (terminal.Session, bool) {
	since := started.Add(-2 * time.Second)
	ents, _ := os.ReadDir(folder)
	var best terminal.Session
	var bestAt time.Time
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || !validSessionID(id) {
			continue
		}
		f := filepath.Join(folder, e.Name())
		at := modTime(f)
		if at.Before(since) || at.After(now.Add(time.Minute)) || !at.After(bestAt) || taken(f) {
			continue
		}
		best, bestAt = terminal.Session{ID: id, File: f}, at
	}
	return best, best.ID != ""
}
