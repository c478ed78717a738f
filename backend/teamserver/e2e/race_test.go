package e2e_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
)

const (
	raceWriters = 20
	raceWrites  = 2 // per writer
)

// Twenty writers, half on each replica, append lines to one Note through
// the endpoint with expected_version: each version has one winner, the
// losers re-read and try again, and every line lands once. A write
// retried with its idempotency key (on the other replica) is applied once.
func notesRace(t *testing.T, c *cluster) {
	n, err := c.notes.CreateNote(bg, notes.NewNote{ID: "note-race", Workspace: c.ws, Project: "proj-a", Title: "Race", Text: "start"})
	must(t, err)
	tab := n.Tabs[0].ID
	a := c.connectAs(t, c.bob, "bob", "Racer", "osfoundry:read osfoundry:write")

	type win struct{ expected, version int64 }
	var mu sync.Mutex
	var wins []win
	attempts := 0
	var wg sync.WaitGroup
	for w := range raceWriters {
		to := []string{"r1", "r2"}[w%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range raceWrites {
				line := fmt.Sprintf("w%02d-%d", w, i)
				for try := 0; ; try++ {
					text, isErr := a.result(to, "read_note_tab", map[string]any{"note_id": "note-race", "tab_id": tab})
					var cur struct {
						Text    string `json:"text"`
						Version int64  `json:"version"`
					}
					if isErr || json.Unmarshal([]byte(text), &cur) != nil {
						t.Errorf("writer %d reading: %s", w, text)
						return
					}
					text, isErr = a.result(to, "edit_note_tab", map[string]any{"note_id": "note-race", "tab_id": tab,
						"expected_version": cur.Version, "idempotency_key": fmt.Sprintf("race-%s-%d", line, try),
						"operation": "replace_text", "text": cur.Text + "\n" + line})
					var out struct {
						Status  string `json:"status"`
						Error   string `json:"error"`
						Version int64  `json:"version"`
					}
					json.Unmarshal([]byte(text), &out)
					mu.Lock()
					attempts++
					if !isErr && out.Status == "saved" {
						wins = append(wins, win{cur.Version, out.Version})
					}
					mu.Unlock()
					if !isErr && out.Status == "saved" {
						break
					}
					if out.Error != "version_conflict" {
						t.Errorf("writer %d on %s: %s", w, to, text)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	expected, versions := map[int64]bool{}, map[int64]bool{}
	for _, w := range wins {
		if expected[w.expected] || versions[w.version] {
			t.Fatalf("two writes won from version %d (or made version %d)", w.expected, w.version)
		}
		expected[w.expected], versions[w.version] = true, true
	}
	final, err := c.notes.GetNote(bg, "note-race")
	must(t, err)
	text := *final.Tabs[0].Text
	for w := range raceWriters {
		for i := range raceWrites {
			if line := fmt.Sprintf("w%02d-%d", w, i); strings.Count(text, line) != 1 {
				t.Errorf("line %s is in the note %d times, want once", line, strings.Count(text, line))
			}
		}
	}
	if len(wins) != raceWriters*raceWrites {
		t.Fatalf("%d writes won, want %d", len(wins), raceWriters*raceWrites)
	}
	t.Logf("%d writers, %d writes won in %d attempts, 0 lost", raceWriters, len(wins), attempts)

	// The same write sent twice, once to each replica: applied once.
	edit := map[string]any{"note_id": "note-race", "tab_id": tab, "expected_version": final.Version,
		"idempotency_key": "retried-once", "operation": "replace_text", "text": text + "\nretried"}
	var first, second struct {
		Status   string `json:"status"`
		Version  int64  `json:"version"`
		Replayed bool   `json:"replayed"`
	}
	t1, e1 := a.result("r1", "edit_note_tab", edit)
	t2, e2 := a.result("r2", "edit_note_tab", edit)
	json.Unmarshal([]byte(t1), &first)
	json.Unmarshal([]byte(t2), &second)
	if e1 || e2 || first.Status != "saved" || second.Status != "saved" || !second.Replayed || first.Replayed || second.Version != first.Version {
		t.Fatalf("a retried write:\n first %s\nsecond %s", t1, t2)
	}
	again, err := c.notes.GetNote(bg, "note-race")
	must(t, err)
	if got := *again.Tabs[0].Text; strings.Count(got, "retried") != 1 || again.Version != first.Version {
		t.Fatalf("after the retry the note is at version %d (want %d) with %d retried lines", again.Version, first.Version, strings.Count(got, "retried"))
	}
}
