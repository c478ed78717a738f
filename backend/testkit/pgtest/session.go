package pgtest

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// TB is what the harness needs of a test. *testing.T and *testing.B
// satisfy it, and so does a Session, which lets a program that is not a
// test (osfoundry-bench) start the same cluster, replicas and balancer.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
	TempDir() string
}

// Session is a TB for programs that are not tests. Fatal writes the
// message, runs the cleanups and exits with status 1, so a failed bench
// leaves no PostgreSQL or replica behind. Close runs the cleanups on the
// normal way out.
type Session struct {
	Name string    // prefixes messages and temporary folders
	Out  io.Writer // where Fatal writes; standard error when nil

	mu       sync.Mutex
	cleanups []func()
}

var _ TB = (*Session)(nil)

func (s *Session) Helper() {}

func (s *Session) Fatal(args ...any) { s.fail(fmt.Sprint(args...)) }

func (s *Session) Fatalf(format string, args ...any) { s.fail(fmt.Sprintf(format, args...)) }

func (s *Session) fail(msg string) {
	out := s.Out
	if out == nil {
		out = os.Stderr
	}
	fmt.Fprintf(out, "%s: %s\n", s.Name, msg)
	s.Close()
	os.Exit(1)
}

// Cleanup runs f at Close, the last registered first, as testing does.
func (s *Session) Cleanup(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cleanups = append(s.cleanups, f)
}

// TempDir makes a folder that Close removes.
func (s *Session) TempDir() string {
	// paths go into config files unquoted (haproxy's): no spaces
	dir, err := os.MkdirTemp("", "osf-"+strings.Join(strings.Fields(s.Name), "-")+"-")
	if err != nil {
		s.Fatalf("making a temporary folder: %v", err)
	}
	s.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// Close runs the cleanups once each.
func (s *Session) Close() {
	for {
		s.mu.Lock()
		n := len(s.cleanups)
		if n == 0 {
			s.mu.Unlock()
			return
		}
		f := s.cleanups[n-1]
		s.cleanups = s.cleanups[:n-1]
		s.mu.Unlock()
		f()
	}
}
