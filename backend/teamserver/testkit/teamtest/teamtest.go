// Package teamtest runs the real `osfoundry team-server` binary for tests:
// it builds ./cmd/osfoundry once per test binary (with the test-only
// routes, -tags osftestroutes), starts replicas against a pgtest
// database, and reads their JSON log lines. Only tests import it.
//
//	func TestMain(m *testing.M) { os.Exit(teamtest.Main(m)) }
//	r := teamtest.Start(t, teamtest.Env(pgtest.Database(t)))
package teamtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

var (
	buildOnce sync.Once
	buildDir  string
	binPath   string
	buildErr  error
)

// TB is what the harness needs of a test: *testing.T, or a pgtest.Session
// in a program that is not a test.
type TB = pgtest.TB

// Main runs the tests, then removes the built binary and the shared
// PostgreSQL cluster.
func Main(m *testing.M) int {
	code := pgtest.Main(m)
	RemoveBinary()
	return code
}

// RemoveBinary deletes the binary Binary built; a program that is not a
// test calls it on its way out.
func RemoveBinary() {
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
}

// Binary builds the osfoundry command line with the test routes, once.
func Binary(t TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "osf-teamserver-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "osfoundry")
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			goTool = "go"
		}
		cmd := exec.Command(goTool, "build", "-tags", "osftestroutes", "-o", binPath, "github.com/osfoundry/desktop/cmd/osfoundry")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building osfoundry: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// Env is the environment of a replica on database url, listening on a
// free loopback port.
func Env(url string) []string {
	return []string{"OSF_DATABASE_URL=" + url, "OSF_PUBLIC_URL=http://127.0.0.1", "OSF_LISTEN=127.0.0.1:0"}
}

// Replica is one running (or exited) team server process.
type Replica struct {
	Addr string // host:port it serves on, from its "serving" log line
	URL  string // http://Addr
	cmd  *exec.Cmd
	out  *lines
	err  *lines
	done chan struct{}
	code int
}

// Start runs `osfoundry team-server` with env (beside PATH and HOME) and
// waits until it serves. It fails t when the process exits first. The
// process is killed when t ends if it still runs.
func Start(t TB, env []string, args ...string) *Replica {
	t.Helper()
	r := Launch(t, env, args...)
	line, err := r.WaitLog(time.Minute, func(l Line) bool { return l["msg"] == "serving" })
	if err != nil {
		t.Fatalf("the team server did not start: %v\nstdout:\n%s\nstderr:\n%s", err, r.Stdout(), r.Stderr())
	}
	r.Addr, _ = line["addr"].(string)
	r.URL = "http://" + r.Addr
	return r
}

// Launch starts the process without waiting for it to serve.
func Launch(t TB, env []string, args ...string) *Replica {
	t.Helper()
	r := &Replica{out: newLines(), err: newLines(), done: make(chan struct{})}
	r.cmd = exec.Command(Binary(t), append([]string{"team-server"}, args...)...)
	r.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.err
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := r.cmd.Wait()
		r.code = r.cmd.ProcessState.ExitCode()
		if err != nil && r.code == 0 {
			r.code = -1
		}
		r.out.close()
		r.err.close()
		close(r.done)
	}()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			r.cmd.Process.Kill()
			<-r.done
		}
	})
	return r
}

// Signal sends sig to the process.
func (r *Replica) Signal(sig os.Signal) error { return r.cmd.Process.Signal(sig) }

// Wait waits up to d for the process to exit and returns its exit code.
func (r *Replica) Wait(d time.Duration) (int, error) {
	select {
	case <-r.done:
		return r.code, nil
	case <-time.After(d):
		return 0, fmt.Errorf("the team server still runs after %s", d)
	}
}

// Exited reports whether the process has exited.
func (r *Replica) Exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// Stdout is everything the process wrote to standard output.
func (r *Replica) Stdout() string { return r.out.text() }

// Stderr is everything the process wrote to standard error.
func (r *Replica) Stderr() string { return r.err.text() }

// Line is one JSON log line.
type Line map[string]any

// Logs parses every line of standard output; a line that is not a JSON
// object is an error.
func (r *Replica) Logs() ([]Line, error) {
	var out []Line
	for i, l := range r.out.all() {
		var m Line
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			return out, fmt.Errorf("log line %d is not JSON (%v): %q", i+1, err, l)
		}
		out = append(out, m)
	}
	return out, nil
}

// WaitLog waits up to d for a log line that match accepts and returns it.
func (r *Replica) WaitLog(d time.Duration, match func(Line) bool) (Line, error) {
	deadline := time.After(d)
	for i := 0; ; {
		ls, closed, changed := r.out.from(i)
		for _, l := range ls {
			i++
			var m Line
			if json.Unmarshal([]byte(l), &m) == nil && match(m) {
				return m, nil
			}
		}
		if closed {
			return nil, fmt.Errorf("the process exited (code %d) without that log line", r.code)
		}
		select {
		case <-changed:
		case <-deadline:
			return nil, fmt.Errorf("no such log line within %s", d)
		}
	}
}

// lines collects a stream's lines and wakes waiters on each new one.
type lines struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	done    []string
	closed  bool
	changed chan struct{}
}

func newLines() *lines { return &lines{changed: make(chan struct{})} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	sc := bufio.NewReader(&l.buf)
	for {
		s, err := sc.ReadString('\n')
		if errors.Is(err, io.EOF) {
			l.buf.Reset()
			l.buf.WriteString(s)
			break
		}
		l.done = append(l.done, strings.TrimSuffix(s, "\n"))
	}
	l.wake()
	return len(p), nil
}

func (l *lines) wake() {
	close(l.changed)
	l.changed = make(chan struct{})
}

func (l *lines) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buf.Len() > 0 {
		l.done = append(l.done, l.buf.String())
		l.buf.Reset()
	}
	l.closed = true
	l.wake()
}

func (l *lines) from(i int) (out []string, closed bool, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.done[i:]...), l.closed, l.changed
}

func (l *lines) all() []string {
	out, _, _ := l.from(0)
	return out
}

func (l *lines) text() string {
	return strings.Join(l.all(), "\n")
}
