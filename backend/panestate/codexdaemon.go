package panestate

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/osfoundry/desktop/backend/panehook"
)

// Codex 0.169 starts a detached app-server daemon (and its updater) the
// first time codex runs for a CODEX_HOME, each in a session of its own and
// reparented to init once the codex that started them ends, so ending a
// pane's session leaves them running after the pane closes and after the
// app quits. The daemon inherits the environment of the codex that
// started it, and with it the pane's OSF_PANE_SECRET, new for every pane
// start, and OSF_PANE_DATA, the app's data folder: a daemon carrying the
// secret of a pane that has closed, or the data folder of this app and a
// secret of no pane of this run (the app was killed), was started from a
// pane, never by the person outside the app. It is ended once no codex of
// the same CODEX_HOME runs any more (another pane's codex, or one outside
// the app, may have connected to it).

// EnvDataDir names the app's data folder in a pane's environment, so the
// next run finds the Codex daemons a killed run's panes left behind.
const EnvDataDir = "OSF_PANE_DATA"

// daemonReaper remembers each pane start's secret.
type daemonReaper struct {
	mu      sync.Mutex
	running sync.Mutex        // one reaping pass at a time
	data    string            // the app's data folder ("" : no sweep at start)
	secrets map[string]string // secret → pane, for the panes of this run
	closed  map[string]bool   // secrets of panes that closed
}

// env is what a pane's environment gets for the reaper.
func (r *daemonReaper) env() []string {
	if r.data == "" {
		return nil
	}
	return []string{EnvDataDir + "=" + r.data}
}

// remember notes the secret in a pane's hook environment.
func (r *daemonReaper) remember(pane string, env []string) {
	secret := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, panehook.EnvSecret+"="); ok {
			secret = v
		}
	}
	if secret == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	r.secrets[secret] = pane
}

func (r *daemonReaper) init() {
	if r.secrets == nil {
		r.secrets, r.closed = map[string]string{}, map[string]bool{}
	}
}

// paneClosed marks every start of pane closed (all: the app quits).
func (r *daemonReaper) paneClosed(pane string, all bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	for s, p := range r.secrets {
		if all || p == pane {
			r.closed[s] = true
			delete(r.secrets, s)
		}
	}
}

// reap ends the daemons started from closed panes that no codex uses any
// more; the secrets of daemons still in use are kept for a later pass.
func (r *daemonReaper) reap() {
	r.running.Lock()
	defer r.running.Unlock()
	r.mu.Lock()
	closed := make(map[string]bool, len(r.closed))
	for s := range r.closed {
		closed[s] = true
	}
	r.mu.Unlock()
	if len(closed) == 0 {
		return
	}
	// A codex carrying a closed pane's secret is that pane's, ending with
	// its session (or an orphan of it): it keeps no daemon alive.
	kept := endCodexDaemons(func(p codexProc) bool { return closed[p.secret] })
	r.mu.Lock()
	for s := range closed {
		if !kept[s] {
			delete(r.closed, s)
		}
	}
	r.mu.Unlock()
}

// sweep ends the daemons a run of the app on the same data folder left
// behind when it was killed before it could end them: they carry this data
// folder and a secret of no pane of this run. Panes may start meanwhile:
// their secret is remembered before their codex runs.
func (r *daemonReaper) sweep() {
	if r.data == "" {
		return
	}
	r.running.Lock()
	defer r.running.Unlock()
	data := filepath.Clean(r.data)
	endCodexDaemons(func(p codexProc) bool {
		if p.secret == "" || p.data == "" || filepath.Clean(p.data) != data {
			return false
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		_, live := r.secrets[p.secret]
		return !live
	})
}

func isCodexArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	if filepath.Base(argv[0]) == "codex" {
		return true
	}
	return len(argv) > 1 && strings.HasPrefix(filepath.Base(argv[0]), "node") && filepath.Base(argv[1]) == "codex"
}

// isCodexDaemon: `codex app-server --listen … --managed-daemon`, or its
// updater `codex app-server daemon pid-update-loop`.
func isCodexDaemon(argv []string) bool {
	if len(argv) < 2 || argv[1] != "app-server" {
		return false
	}
	for _, a := range argv[2:] {
		if a == "--managed-daemon" || a == "pid-update-loop" {
			return true
		}
	}
	return false
}

// isCodexUpdater: `codex app-server daemon pid-update-loop`.
func isCodexUpdater(argv []string) bool {
	return len(argv) > 3 && argv[1] == "app-server" && argv[2] == "daemon" && argv[3] == "pid-update-loop"
}
