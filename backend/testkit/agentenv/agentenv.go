// Package agentenv builds from-scratch environments and temp homes in which
// the real agent CLIs run against the fake model server: nothing of this
// machine's home, credentials or network settings reaches them, and every
// process they start (including detached daemons) is ended by PID afterwards.
package agentenv

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
)

// MarkerVar is set in every environment built here to a value unique to the
// Env. Processes inherit it, detached daemons included, which is how Cleanup
// finds them by PID without touching anything else on the machine.
const MarkerVar = "OSF_TESTKIT_RUN"

// Env is one agent's sandbox: a temp base folder holding home/, work/ and tmp/.
type Env struct {
	Agent string // "claude", "codex", …
	Bin   string // path of the real CLI
	Base  string // temp root, removed by Cleanup when it created it
	Home  string // HOME
	Work  string // working folder the agent runs in (trusted)
	Tmp   string // TMPDIR, outside HOME on purpose (Codex refuses helpers under a temp dir)
	Env   []string
	// Args are flags every invocation needs (e.g. Codex's -m), placed right
	// after the subcommand by Argv.
	Args []string

	marker  string
	ownBase bool
	mu      sync.Mutex
	cmds    []*exec.Cmd
}

// Options for a new Env.
type Options struct {
	// ModelURL is the fake model server's base URL (http://127.0.0.1:port).
	ModelURL string
	// Base is the folder to build in; empty means a fresh temp folder.
	// Tests pass t.TempDir()-like paths; the recorder passes its own.
	Base string
	// Extra environment entries (KEY=value), appended last.
	Extra []string
	// Untrusted leaves the work folder untrusted (and, for the CLIs where
	// folder trust is a setting, turns it on), so the CLI shows the trust
	// dialog a user meets on the first run in a new folder.
	Untrusted bool
}

func newEnv(agent string, o Options) (*Env, error) {
	bin, ok := agentbin.Find(agent)
	if !ok {
		return nil, fmt.Errorf("finding %s: %s", agent, agentbin.SkipMessage(agent))
	}
	if o.ModelURL == "" {
		return nil, fmt.Errorf("building %s env: ModelURL is empty; start a fakemodel server and pass its URL", agent)
	}
	e := &Env{Agent: agent, Bin: bin, Base: o.Base}
	if e.Base == "" {
		d, err := os.MkdirTemp("", "osf-"+agent+"-")
		if err != nil {
			return nil, fmt.Errorf("making temp base: %w", err)
		}
		e.Base, e.ownBase = d, true
	}
	// Resolve symlinks so the paths written in config files are the ones the
	// CLIs see as their cwd (macOS /var → /private/var).
	if p, err := filepath.EvalSymlinks(e.Base); err == nil {
		e.Base = p
	}
	e.Home = filepath.Join(e.Base, "home")
	e.Work = filepath.Join(e.Base, "work")
	e.Tmp = filepath.Join(e.Base, "tmp")
	for _, d := range []string{e.Home, e.Work, e.Tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("making %s: %w", d, err)
		}
	}
	var b [8]byte
	rand.Read(b[:]) //nolint:errcheck // never fails on supported platforms
	e.marker = hex.EncodeToString(b[:])
	e.Env = []string{
		"PATH=" + searchPath(bin),
		"HOME=" + e.Home,
		"TMPDIR=" + e.Tmp,
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"USER=osf",
		"SHELL=/bin/bash",
		MarkerVar + "=" + e.marker,
	}
	return e, nil
}

// searchPath is the agents' bin folder, node's folder and the system folders:
// enough for the CLIs and the commands their tools run, nothing of the
// developer's own PATH.
func searchPath(bin string) string {
	dirs := []string{filepath.Dir(bin)}
	if node, err := exec.LookPath("node"); err == nil {
		dirs = append(dirs, filepath.Dir(node))
	}
	dirs = append(dirs, "/usr/local/bin", "/usr/bin", "/bin")
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return strings.Join(out, string(os.PathListSeparator))
}

// Setenv adds or replaces one variable.
func (e *Env) Setenv(key, value string) {
	for i, kv := range e.Env {
		if strings.HasPrefix(kv, key+"=") {
			e.Env[i] = key + "=" + value
			return
		}
	}
	e.Env = append(e.Env, key+"="+value)
}

// Argv is the full argument vector: the binary, then args, with e.Args
// inserted after a leading subcommand such as "exec".
func (e *Env) Argv(args ...string) []string {
	argv := []string{e.Bin}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && isSubcommand(e.Agent, args[0]) {
		argv = append(argv, args[0])
		args = args[1:]
	}
	argv = append(argv, e.Args...)
	return append(argv, args...)
}

func isSubcommand(agent, s string) bool {
	return agent == "codex" && (s == "exec" || s == "resume")
}

// Command returns a command for the agent in its own process group, tracked
// for Cleanup.
func (e *Env) Command(ctx context.Context, args ...string) *exec.Cmd {
	argv := e.Argv(args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = e.Work
	cmd.Env = e.Env
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = 5 * time.Second
	e.mu.Lock()
	e.cmds = append(e.cmds, cmd)
	e.mu.Unlock()
	return cmd
}

// Processes lists the PIDs of live processes that carry this Env's marker.
func (e *Env) Processes() []int { return markedPIDs(MarkerVar + "=" + e.marker) }

// Cleanup kills every process of this Env by PID (process groups of the
// commands it started, then any marked stragglers such as Codex's
// app-server daemon) and removes the temp base it created.
func (e *Env) Cleanup() error {
	e.mu.Lock()
	cmds := e.cmds
	e.mu.Unlock()
	for _, c := range cmds {
		if c.Process != nil {
			killGroup(c.Process.Pid) //nolint:errcheck // may be gone already
		}
	}
	for try := 0; try < 20; try++ {
		pids := e.Processes()
		if len(pids) == 0 {
			break
		}
		for _, pid := range pids {
			killPID(pid) //nolint:errcheck // may be gone already
		}
		time.Sleep(50 * time.Millisecond)
	}
	if left := e.Processes(); len(left) > 0 {
		return fmt.Errorf("cleaning up %s env: processes still alive: %v", e.Agent, left)
	}
	if e.ownBase {
		// Codex may write read-only files into its home; make them removable.
		filepath.Walk(e.Base, func(p string, fi os.FileInfo, err error) error { //nolint:errcheck // best effort
			if err == nil && fi.IsDir() {
				os.Chmod(p, 0o700) //nolint:errcheck // best effort
			}
			return nil
		})
		if err := os.RemoveAll(e.Base); err != nil {
			return fmt.Errorf("removing %s: %w", e.Base, err)
		}
	}
	return nil
}

// register makes Cleanup run at the end of the test and fails the test when
// something is left running.
func register(tb testing.TB, e *Env) *Env {
	tb.Cleanup(func() {
		if err := e.Cleanup(); err != nil {
			tb.Error(err)
		}
	})
	return e
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("making folder for %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Output runs the agent headless (empty stdin) within timeout and returns
// its stdout and stderr; a failure's error carries both.
func (e *Env) Output(timeout time.Duration, args ...string) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := e.Command(ctx, args...)
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.Output()
	if err != nil {
		err = fmt.Errorf("running %s %v: %w\nstdout:\n%s\nstderr:\n%s", e.Agent, args, err, out, errBuf.Bytes())
	}
	return out, errBuf.Bytes(), err
}
