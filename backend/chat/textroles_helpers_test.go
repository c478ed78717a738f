package chat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// roleClaude is a shell-script claude that answers by role: the Titling
// and Compaction prompts get their own answers, everything else the
// Worker's. Each call's argv is kept in its own file (argv-<pid>), and the
// Worker reports the context size written in $FAKE_DIR/context, so a test
// can push a chat past the compaction threshold without sending 150,000
// tokens.
const roleClaude = `#!/bin/sh
if [ "$1" = "--version" ]; then echo '2.1.328 (Claude Code)'; exit 0; fi
printf '%s\n' "$@" > "$FAKE_DIR/argv-$$"
all="$*"
ctx=5
[ -f "$FAKE_DIR/context" ] && ctx=$(cat "$FAKE_DIR/context")
case "$all" in
*"title of at most six words"*)
  if [ -e "$FAKE_DIR/title-fails" ]; then echo 'fatal: the title model is overloaded' >&2; exit 2; fi
  answer=$(cat "$FAKE_DIR/title-answer"); ctx=5 ;;
*"Summarise the conversation so far"*)
  if [ -e "$FAKE_DIR/summary-hangs" ]; then echo '{"type":"system","subtype":"init","session_id":"sess-9"}'; exec sleep 300; fi
  answer=$(cat "$FAKE_DIR/summary-answer"); ctx=5 ;;
*) answer="$FAKE_ANSWER" ;;
esac
echo '{"type":"system","subtype":"init","session_id":"sess-1"}'
echo "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"$answer\",\"session_id\":\"sess-1\",\"usage\":{\"input_tokens\":$ctx,\"output_tokens\":2}}"
`

// newRoleRig is newRig with roleClaude: answer for the Worker, title for
// Titling, summary for Compaction.
// Its service logs into the returned logs.
func newRoleRig(t *testing.T, answer, title, summary string) (*rig, *logs) {
	t.Helper()
	r := newRig(t, "ok", answer)
	must(t, os.WriteFile(filepath.Join(r.dir, "bin", "claude"), []byte(roleClaude), 0o755))
	must(t, os.WriteFile(filepath.Join(r.dir, "title-answer"), []byte(title), 0o644))
	must(t, os.WriteFile(filepath.Join(r.dir, "summary-answer"), []byte(summary), 0o644))
	// The same database and runner, with a logger the test reads.
	l := &logs{}
	must(t, r.svc.Close())
	svc, err := New(context.Background(), Options{DB: r.svc.db, Runner: r.svc.run, Emitter: r.ev, Now: r.clock.now, Logf: l.logf})
	must(t, err)
	t.Cleanup(func() { svc.Close() })
	r.svc = svc
	return r, l
}

// calls returns the argv of every claude call so far (order unknown).
func (r *rig) calls(t *testing.T) [][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(r.dir, "argv-*"))
	must(t, err)
	sort.Strings(files)
	var out [][]string
	for _, f := range files {
		b, err := os.ReadFile(f)
		must(t, err)
		out = append(out, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
	}
	return out
}

// callsWith returns the calls whose argv mentions s.
func (r *rig) callsWith(t *testing.T, s string) [][]string {
	var out [][]string
	for _, c := range r.calls(t) {
		if strings.Contains(strings.Join(c, "\n"), s) {
			out = append(out, c)
		}
	}
	return out
}

// logs collects what the service logs.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func writeFile(dir, name, content string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
}
