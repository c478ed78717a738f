package pgnotes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/tools"
)

// replica is one server process's notes store: its own pool and services
// over the shared database.
type replica struct{ s *notes.Store }

func newReplicas(t *testing.T) (replica, replica) {
	db, url := openDB(t)
	a := notes.OpenBackend(db, nil, notes.Options{})
	b := notes.OpenBackend(openURL(t, url), nil, notes.Options{})
	return replica{a}, replica{b}
}

// seedNote makes workspace ws with Note "note-1" (one empty text tab) and
// returns the tab's id.
func seedNote(t *testing.T, r replica) string {
	t.Helper()
	ctx := context.Background()
	if _, err := r.s.CreateWorkspace(ctx, "ws", "Team"); err != nil {
		t.Fatal(err)
	}
	n, err := r.s.CreateNote(ctx, notes.NewNote{ID: "note-1", Workspace: "ws", Title: "Plan"})
	if err != nil {
		t.Fatal(err)
	}
	return n.Tabs[0].ID
}

// edit calls edit_note_tab as an assistant would, through the store's tool.
func (r replica) edit(t *testing.T, tab string, expected int64, key, text string) (map[string]any, bool) {
	return r.editNote(t, "note-1", tab, expected, key, text)
}

func (r replica) editNote(t *testing.T, note, tab string, expected int64, key, text string) (map[string]any, bool) {
	tool, ok := r.s.Tool(notes.ToolEditNoteTab)
	if !ok {
		t.Fatal("no edit_note_tab tool")
	}
	args, _ := json.Marshal(map[string]any{"note_id": note, "tab_id": tab, "expected_version": expected,
		"idempotency_key": key, "operation": "replace_text", "text": text})
	res, err := tool.Handler(context.Background(), tools.Call{Workspace: "ws", Tool: notes.ToolEditNoteTab, Args: args})
	if err != nil {
		t.Error(err)
		return nil, false
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(res.Text), &body); err != nil {
		t.Errorf("result is not JSON: %s", res.Text)
		return nil, false
	}
	return body, !res.IsError
}

func (r replica) read(t *testing.T) (string, int64) {
	n, err := r.s.GetNote(context.Background(), "note-1")
	if err != nil {
		t.Error(err)
		return "", 0
	}
	return *n.Tabs[0].Text, n.Version
}

// Twenty assistants on two replicas each append five lines to one Note
// with guarded writes, re-reading and re-applying after every conflict.
// Every version has exactly one winner and no line is lost.
func TestGuardedWritesAcrossReplicas(t *testing.T) {
	a, b := newReplicas(t)
	tab := seedNote(t, a)
	const writers, lines = 20, 5
	var (
		mu        sync.Mutex
		winners   = map[int64]string{}
		conflicts int
		wg        sync.WaitGroup
	)
	for w := range writers {
		r := a
		if w%2 == 1 {
			r = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n, try := 0, 0; n < lines && try < 500; try++ {
				text, v := r.read(t)
				line := fmt.Sprintf("w%02d-%d", w, n)
				body, ok := r.edit(t, tab, v, fmt.Sprintf("key-%02d-%04d", w, try), text+line+"\n")
				if body == nil {
					return
				}
				mu.Lock()
				switch {
				case ok:
					won := int64(body["version"].(float64))
					if prev, dup := winners[won]; dup {
						t.Errorf("version %d won twice: by %s and %s", won, prev, line)
					}
					winners[won] = line
					n++
				case body["error"] == "version_conflict":
					conflicts++
				default:
					t.Errorf("write refused: %v", body)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	text, final := b.read(t)
	if final != 1+writers*lines || len(winners) != writers*lines {
		t.Fatalf("final version %d with %d winning writes; want %d and %d", final, len(winners), 1+writers*lines, writers*lines)
	}
	for v := int64(2); v <= final; v++ {
		if winners[v] == "" {
			t.Errorf("version %d has no winner", v)
		}
	}
	got := strings.Fields(text)
	sort.Strings(got)
	var want []string
	for w := range writers {
		for n := range lines {
			want = append(want, fmt.Sprintf("w%02d-%d", w, n))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("lost or doubled lines: the Note holds %d lines, want each of %d once", len(got), len(want))
	}
	t.Logf("%d writes won, %d version conflicts answered", len(winners), conflicts)
}

// One write sent twenty times at once with the same idempotency key, half
// to each replica (a client retrying on both after losing the response):
// it is applied once, and every other call gets that first result back.
func TestRetriedWriteAppliedOnce(t *testing.T) {
	a, b := newReplicas(t)
	tab := seedNote(t, a)
	type outcome struct {
		version  int64
		replayed bool
	}
	out := make(chan outcome, 20)
	var wg sync.WaitGroup
	for i := range 20 {
		r := a
		if i%2 == 1 {
			r = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, ok := r.edit(t, tab, 1, "key-retried-0001", "once\n")
			if !ok {
				t.Errorf("a retry was refused: %v", body)
				return
			}
			out <- outcome{int64(body["version"].(float64)), body["replayed"].(bool)}
		}()
	}
	wg.Wait()
	close(out)
	applied := 0
	for o := range out {
		if o.version != 2 {
			t.Errorf("a retry answered version %d, want the first result's 2", o.version)
		}
		if !o.replayed {
			applied++
		}
	}
	if applied != 1 {
		t.Fatalf("the write was applied %d times, want once", applied)
	}
	// Later, on the other replica, with the version it has since re-read.
	if body, ok := b.edit(t, tab, 2, "key-retried-0001", "once\n"); !ok || body["replayed"] != true {
		t.Fatalf("a late retry: %v, want the first result replayed", body)
	}
	if text, v := a.read(t); text != "once\n" || v != 2 {
		t.Fatalf("after the retries: %q at version %d, want the one write at version 2", text, v)
	}
}

// Twenty assistants on two replicas each write their own Note, twenty-five
// times: writers of different Notes never wait for or refuse each other,
// so every write is saved at the version its writer expects.
func TestWritersOfDifferentNotesNeverCollide(t *testing.T) {
	a, b := newReplicas(t)
	ctx := context.Background()
	if _, err := a.s.CreateWorkspace(ctx, "ws", "Team"); err != nil {
		t.Fatal(err)
	}
	const writers, writes = 20, 25
	tabs := make([]string, writers)
	for i := range writers {
		n, err := a.s.CreateNote(ctx, notes.NewNote{ID: fmt.Sprintf("note-%02d", i), Workspace: "ws", Title: "Plan"})
		if err != nil {
			t.Fatal(err)
		}
		tabs[i] = n.Tabs[0].ID
	}
	var wg sync.WaitGroup
	for i := range writers {
		r := a
		if i%2 == 1 {
			r = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range writes {
				note := fmt.Sprintf("note-%02d", i)
				body, ok := r.editNote(t, note, tabs[i], int64(k+1), fmt.Sprintf("key-%02d-%04d", i, k), fmt.Sprintf("line %d", k))
				if !ok {
					t.Errorf("%s, write %d: %v", note, k, body)
					return
				}
			}
		}()
	}
	wg.Wait()
	for i := range writers {
		n, err := b.s.GetNote(ctx, fmt.Sprintf("note-%02d", i))
		if err != nil {
			t.Fatal(err)
		}
		if n.Version != 1+writes || *n.Tabs[0].Text != fmt.Sprintf("line %d", writes-1) {
			t.Errorf("%s ends at version %d with %q, want %d with its last line", n.ID, n.Version, *n.Tabs[0].Text, 1+writes)
		}
	}
}
