package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/board"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
)

// fakeClaude is a shell-script claude printing stream-json the way the
// real one does (decoders are tested on the real streams in agentcli).
const fakeClaude = `#!/bin/sh
if [ "$1" = "--version" ]; then echo '2.1.328 (Claude Code)'; exit 0; fi
# last-argv is the last task's: the default Titling run after a first
# answer may start at any moment and is not one.
case "$*" in *"title of at most six words"*) ;; *) printf '%s\n' "$@" > "$FAKE_DIR/last-argv" ;; esac
case "$FAKE_MODE" in
ok)
  echo '{"type":"system","subtype":"init","session_id":"sess-1"}'
  echo '{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"Work"}},"parent_tool_use_id":null}'
  echo '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"mcp__osfoundry__memory_search","input":{"query":"plan"}}]},"parent_tool_use_id":null}'
  # A test holds the answer back while it checks what happens mid-run.
  while [ -e "$FAKE_DIR/hold" ]; do sleep 0.01; done
  echo "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"$FAKE_ANSWER\",\"session_id\":\"sess-1\",\"total_cost_usd\":1.5,\"usage\":{\"input_tokens\":5,\"output_tokens\":2}}"
  ;;
fail)
  echo 'fatal: the model is overloaded' >&2
  exit 2
  ;;
slow)
  echo $$ > "$FAKE_DIR/pid"
  echo '{"type":"system","subtype":"init","session_id":"sess-1"}'
  for i in 1 2 3 4 5 6 7 8 9 10; do
    echo "{\"type\":\"tick\",\"n\":$i}"
    sleep 0.1
  done
  echo "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"$FAKE_ANSWER\",\"session_id\":\"sess-1\"}"
  ;;
hang)
  echo '{"type":"system","subtype":"init","session_id":"sess-1"}'
  exec sleep 300
  ;;
esac
`

type events struct {
	mu  sync.Mutex
	got []runs.RunEvent
}

func (e *events) Emit(name string, payload any) {
	if ev, ok := payload.(runs.RunEvent); ok && name == runs.EventRun {
		e.mu.Lock()
		e.got = append(e.got, ev)
		e.mu.Unlock()
	}
}

func (e *events) progress(runID string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.got {
		if ev.RunID == runID && ev.Kind == agentcli.KindProgress {
			out = append(out, ev.Text)
		}
	}
	return out
}

type rig struct {
	svc    *Service
	ev     *events
	dir    string
	folder string
	clock  *clock
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

// now advances a millisecond per call so orderings are deterministic.
func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

func newRig(t *testing.T, mode, answer string) *rig {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "claude"), []byte(fakeClaude), 0o755))
	folder := filepath.Join(dir, "work")
	must(t, os.MkdirAll(folder, 0o755))
	db, err := store.Open(filepath.Join(dir, "app.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: dir, Path: bin,
		Environ: []string{"PATH=" + bin + ":/usr/bin:/bin", "FAKE_DIR=" + dir, "FAKE_MODE=" + mode, "FAKE_ANSWER=" + answer}}})
	r := &rig{ev: &events{}, dir: dir, folder: folder, clock: &clock{t: time.Unix(1_800_000_000, 0)}}
	r.svc, err = New(context.Background(), Options{DB: db, Runner: runner, Emitter: r.ev, Now: r.clock.now})
	must(t, err)
	t.Cleanup(func() { r.svc.Close() })
	return r
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (r *rig) lastArgv(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join(r.dir, "last-argv"))
	must(t, err)
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func (r *rig) card(t *testing.T, id string) board.Card {
	t.Helper()
	for _, c := range r.svc.boardCards() {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no card %s in %+v", id, r.svc.boardCards())
	return board.Card{}
}
