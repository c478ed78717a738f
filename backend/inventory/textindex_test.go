package inventory

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// waitText waits until the conversation index has read every listed
// session (a condition, not a duration).
func waitText(t *testing.T, svc *Service) TextStatus {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st := svc.TextStatus()
		if st.On && !st.Running && st.Total > 0 && st.Indexed == st.Total {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the conversation index never finished: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func hitKeys(t *testing.T, svc *Service, q string) []string {
	t.Helper()
	hits, err := svc.SearchText(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Key)
	}
	return out
}

func TestSearchInConversations(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	dbPath := filepath.Join(t.TempDir(), "app.db")
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	proj := filepath.Join(home, ".claude", "projects", "-w")
	a := "1a2b3c4d-0000-4000-8000-000000000001"
	b := "1a2b3c4d-0000-4000-8000-000000000002"
	torn := "1a2b3c4d-0000-4000-8000-000000000003"
	huge := "1a2b3c4d-0000-4000-8000-000000000004"
	answer := func(id, text string) m {
		return m{"type": "assistant", "sessionId": id, "cwd": "/w", "timestamp": "2026-11-04T10:00:09.000Z",
			"message": m{"role": "assistant", "model": "claude-opus-4-5", "content": []m{{"type": "text", "text": text}}}}
	}
	pa := write(t, filepath.Join(proj, a+".jsonl"), claudeLines(a, "/w", "main", "Why does a retry charge twice?",
		answer(a, "Add an Idempotency-Key header to the payment request.")))
	write(t, filepath.Join(proj, b+".jsonl"), claudeLines(b, "/w", "main", "Tidy the logs"))
	// A torn file: garbage between records, a cut last line.
	write(t, filepath.Join(proj, torn+".jsonl"), claudeLines(torn, "/w", "main", "Draft the release notes")+
		"{not json at all\n\x00\x00\x00\n"+`{"type":"assistant","message":{"content":"cut`)
	// A huge one: far more message text than the index keeps per session
	// (each row holds at most rowTextCap of a message).
	big := strings.Repeat("lorem ipsum ", 40<<10/12)
	recs := []any{}
	for range TextCap/rowTextCap + 16 {
		recs = append(recs, answer(huge, big))
	}
	recs = append(recs, answer(huge, "the needle after the cap"))
	write(t, filepath.Join(proj, huge+".jsonl"), claudeLines(huge, "/w", "main", "A long session", recs...))

	svc := newTestService(t, home, db, nil)
	svc.text.every = 0 // the next pass as soon as something changed
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if st := svc.TextStatus(); st.On {
		t.Fatalf("search in conversations is on before the person turns it on: %+v", st)
	}
	if got := hitKeys(t, svc, "idempotency"); len(got) != 0 {
		t.Fatalf("off, but the search found %v", got)
	}
	var mu sync.Mutex
	var seen []TextStatus
	svc.OnTextProgress(func(st TextStatus) { mu.Lock(); seen = append(seen, st); mu.Unlock() })
	if _, err := svc.SetTextSearch(ctx, true); err != nil {
		t.Fatal(err)
	}
	st := waitText(t, svc)
	if st.Total != 4 || st.Skipped != 0 {
		t.Fatalf("status %+v: want 4 sessions, none skipped (a torn line is a skipped row)", st)
	}
	// The screen hears the end too.
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		last := TextStatus{Running: true}
		if len(seen) > 0 {
			last = seen[len(seen)-1]
		}
		mu.Unlock()
		if !last.Running && last.Indexed == 4 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("progress never reported the end: %+v", last)
		}
	}
	keyA, keyTorn := "claude-code:"+a, "claude-code:"+torn
	if got := hitKeys(t, svc, "IDEMPOTENCY-key"); len(got) != 1 || got[0] != keyA {
		t.Fatalf("search found %v, want %s", got, keyA)
	}
	hits, _ := svc.SearchText(ctx, "idempotency")
	if !strings.Contains(hits[0].Snippet, "Idempotency-Key header") {
		t.Fatalf("snippet %q", hits[0].Snippet)
	}
	if got := hitKeys(t, svc, "release notes"); len(got) != 1 || got[0] != keyTorn {
		t.Fatalf("the torn file's text: %v", got)
	}
	if got := hitKeys(t, svc, "id"); len(got) != 0 {
		t.Fatalf("a two-letter query matched %v", got)
	}
	if got := hitKeys(t, svc, "needle after the cap"); len(got) != 0 {
		t.Fatalf("text past the per-session cap was indexed: %v", got)
	}
	var longest int
	if err := db.QueryRow(`SELECT MAX(length(CAST(body AS BLOB))) FROM inventory_text`).Scan(&longest); err != nil || longest > TextCap {
		t.Fatalf("longest indexed text %d bytes (%v), cap %d", longest, err, TextCap)
	}

	// A session that grows is read again.
	f, err := os.OpenFile(pa, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(jsonl(answer(a, "Also retry with exponential backoff.")))
	f.Close()
	refresh(t, svc)
	deadline := time.Now().Add(30 * time.Second)
	for len(hitKeys(t, svc, "exponential backoff")) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the appended text was never indexed: %+v", svc.TextStatus())
		}
		time.Sleep(20 * time.Millisecond)
	}
	svc.Close()

	// The index survives a restart: found before anything is read again.
	again := newTestService(t, home, db, nil)
	if st := again.TextStatus(); !st.On || st.Indexed != 4 {
		t.Fatalf("after a restart: %+v", st)
	}
	if got := hitKeys(t, again, "idempotency"); len(got) != 1 {
		t.Fatalf("after a restart the search found %v", got)
	}
	// Off drops the index.
	if _, err := again.SetTextSearch(ctx, false); err != nil {
		t.Fatal(err)
	}
	if got := hitKeys(t, again, "idempotency"); len(got) != 0 {
		t.Fatalf("off, but found %v", got)
	}
	if n := count(t, db, `SELECT COUNT(*) FROM inventory_text_sessions`); n != 0 {
		t.Fatalf("%d sessions still indexed after turning it off", n)
	}
}

func count(t *testing.T, db *sql.DB, q string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSearchInConversationsNeedsADatabase(t *testing.T) {
	svc := newTestService(t, t.TempDir(), nil, nil)
	if _, err := svc.SetTextSearch(context.Background(), true); err == nil {
		t.Fatal("turned on without a database")
	}
}

// stuckTranscripts is the Claude Code adapter with a transcript reader
// that waits until released (or cancelled), standing in for a huge file
// on a slow disk.
type stuckTranscripts struct {
	Adapter
	entered chan struct{}
	release chan struct{}
}

func (s *stuckTranscripts) Transcript(ctx context.Context, env Env, ss Session, cursor int64, limit int) (Page, error) {
	select {
	case s.entered <- struct{}{}:
	default:
	}
	select {
	case <-s.release:
	case <-ctx.Done():
		return Page{}, ctx.Err()
	}
	return s.Adapter.Transcript(ctx, env, ss, cursor, limit)
}

// The list, a refresh and turning the search off never wait for a
// conversation the index is still reading.
func TestTheListNeverWaitsForTheIndex(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	id := "5d4c3b2a-0000-4000-8000-000000000001"
	write(t, filepath.Join(home, ".claude", "projects", "-w", id+".jsonl"), claudeLines(id, "/w", "main", "Slow one"))
	svc := newTestService(t, home, db, nil)
	stuck := &stuckTranscripts{Adapter: svc.ix.adapters[0], entered: make(chan struct{}, 1), release: make(chan struct{})}
	svc.ix.adapters[0] = stuck
	refresh(t, svc)
	if _, err := svc.SetTextSearch(ctx, true); err != nil {
		t.Fatal(err)
	}
	<-stuck.entered // the indexer is inside the slow read now
	if n := len(svc.List("", "")); n != 1 {
		t.Fatalf("list: %d sessions", n)
	}
	id2 := "5d4c3b2a-0000-4000-8000-000000000002"
	write(t, filepath.Join(home, ".claude", "projects", "-w", id2+".jsonl"), claudeLines(id2, "/w", "main", "New one"))
	refresh(t, svc)
	if n := len(svc.List("", "")); n != 2 {
		t.Fatalf("list after a refresh: %d sessions", n)
	}
	if st := svc.TextStatus(); !st.Running {
		t.Fatalf("status while reading: %+v", st)
	}
	// Off cancels the read in progress.
	if _, err := svc.SetTextSearch(ctx, false); err != nil {
		t.Fatal(err)
	}
	close(stuck.release)
}
