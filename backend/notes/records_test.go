package notes

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// recordEvents records what a RecordsBinding emits.
type recordEvents struct{ ch chan RecordsChangedEvent }

func (e *recordEvents) Emit(name string, payload any) {
	if name == EventRecordsChanged {
		e.ch <- payload.(RecordsChangedEvent)
	}
}

func (e *recordEvents) next(t *testing.T) RecordsChangedEvent {
	t.Helper()
	select {
	case ev := <-e.ch:
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no records:changed event")
		return RecordsChangedEvent{}
	}
}

func newBoard(t *testing.T, f *fixture) RecordBoard {
	t.Helper()
	b, err := f.s.CreateRecordBoard(context.Background(), "ws-1", "proj-a", "Website pages", []string{"Draft", " Review", "Ready", ""})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b.Statuses, ","); got != "Draft,Review,Ready" {
		t.Fatalf("statuses = %q", got)
	}
	return b
}

func TestRecordStatusOutsideTheChannelListIsRefused(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	b := newBoard(t, f)
	want := `status "Shipped" is not one of this channel's statuses (Draft, Review, Ready)`

	if _, err := f.s.AddRecord(ctx, b.ID, "Pricing page", "Shipped", ""); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
		t.Fatalf("add with an unknown status: %v", err)
	}
	it, err := f.s.AddRecord(ctx, b.ID, "Pricing page", "", "first draft")
	if err != nil {
		t.Fatal(err)
	}
	if it.Status != "Draft" || it.Fields[BodyField] != "first draft" || it.Version != 1 {
		t.Fatalf("added item = %+v, want status Draft (the first) and the body", it)
	}
	if _, err := f.s.SaveRecordAsPerson(ctx, b.ID, it.ID, 1, RecordEdit{Title: "Pricing page", Status: "Shipped"}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
		t.Fatalf("person save with an unknown status: %v", err)
	}
	res := f.call(ToolEditRecordItem, map[string]any{"record_channel_id": b.ID, "item_id": it.ID, "expected_version": 1,
		"idempotency_key": "key-status-1", "values": map[string]any{"status": "Shipped"}})
	if !res.IsError || !strings.Contains(res.Text, want) {
		t.Fatalf("agent edit with an unknown status: %+v", res)
	}
	res = f.call(ToolEditRecordItem, map[string]any{"record_channel_id": b.ID, "item_id": it.ID, "expected_version": 1,
		"idempotency_key": "key-status-2", "values": map[string]any{"status": "Ready"}})
	if res.IsError {
		t.Fatalf("agent edit to Ready: %s", res.Text)
	}
	got, err := f.s.GetRecord(ctx, b.ID, it.ID)
	if err != nil || got.Status != "Ready" || got.Version != 2 {
		t.Fatalf("after the agent's edit: %+v %v", got, err)
	}
	// A channel made without statuses (an older one) accepts any status.
	old, err := f.s.CreateRecordChannel(ctx, "ws-1", "", "", "Legacy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.AddRecord(ctx, old.ID, "Anything", "Whatever", ""); err != nil {
		t.Fatalf("a channel without statuses refused a status: %v", err)
	}
}

func TestRecordPersonSaveIsConditional(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	b := newBoard(t, f)
	it, err := f.s.AddRecord(ctx, b.ID, "Pricing page", "Draft", "v1 body")
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.s.SaveRecordAsPerson(ctx, b.ID, it.ID, 1, RecordEdit{Title: "Pricing page", Status: "Review", Body: "person body"})
	if err != nil || !r.Saved || r.Version != 2 {
		t.Fatalf("first save: %+v %v", r, err)
	}
	res := f.call(ToolEditRecordItem, map[string]any{"record_channel_id": b.ID, "item_id": it.ID, "expected_version": 2,
		"idempotency_key": "key-cond-1", "values": map[string]any{"body": "agent body", "owner": "sam"}})
	if res.IsError {
		t.Fatal(res.Text)
	}
	// The person's editor still holds version 2: the save is refused and
	// carries the agent's item.
	r, err = f.s.SaveRecordAsPerson(ctx, b.ID, it.ID, 2, RecordEdit{Title: "Pricing page", Status: "Ready", Body: "stale"})
	if err != nil || r.Saved || r.Version != 3 || r.Current == nil || r.Current.Fields[BodyField] != "agent body" {
		t.Fatalf("stale save: %+v %v", r, err)
	}
	r, err = f.s.SaveRecordAsPerson(ctx, b.ID, it.ID, 3, RecordEdit{Title: "Pricing page", Status: "Ready", Body: "agent body\nperson"})
	if err != nil || !r.Saved {
		t.Fatalf("re-applied save: %+v %v", r, err)
	}
	got, _ := f.s.GetRecord(ctx, b.ID, it.ID)
	if got.Status != "Ready" || got.Fields["owner"] != "sam" || got.Fields[BodyField] != "agent body\nperson" {
		t.Fatalf("stored = %+v; the person's save must keep the agent's other fields", got)
	}
	// The saved item comes with the answer, as stored (the team server
	// answers it instead of re-reading, when a teammate may have written).
	if r.Item == nil || !reflect.DeepEqual(*r.Item, got) {
		t.Fatalf("saved item in the answer = %+v; stored %+v", r.Item, got)
	}
	fr, err := f.s.SaveRecordFieldsAsPerson(ctx, b.ID, it.ID, 4, "Pricing page", "Ready", map[string]any{"owner": "kim"})
	got, _ = f.s.GetRecord(ctx, b.ID, it.ID)
	if err != nil || !fr.Saved || fr.Item == nil || !reflect.DeepEqual(*fr.Item, got) {
		t.Fatalf("fields save = %+v, %v; stored %+v", fr, err, got)
	}
	if _, err := f.s.SaveRecordAsPerson(ctx, b.ID, "rec-missing", 1, RecordEdit{Title: "x", Status: "Draft"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing item: %v", err)
	}
}

func TestRecordsBindingAnnouncesEveryWriterOnce(t *testing.T) {
	f := newFixture(t, Options{})
	ev := &recordEvents{ch: make(chan RecordsChangedEvent, 100)}
	rb := NewRecordsBinding(f.s, ev)
	rb.every = 20 * time.Millisecond
	if err := rb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rb.Stop)
	b, err := rb.CreateChannel("ws-1", "", "Pages", []string{"Draft", "Ready"})
	if err != nil {
		t.Fatal(err)
	}
	it, err := rb.AddItem(b.ID, "Pricing page", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := ev.next(t); got != (RecordsChangedEvent{b.ID, it.ID, 1}) {
		t.Fatalf("event after add = %+v", got)
	}
	// An agent in another process (a second handle on the same file).
	db2, err := store.Open(filepath.Join(f.dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	other, err := Open(db2, filepath.Join(f.dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	f2 := &fixture{t: t, s: other}
	res := f2.call(ToolEditRecordItem, map[string]any{"record_channel_id": b.ID, "item_id": it.ID, "expected_version": 1,
		"idempotency_key": "key-live-1", "values": map[string]any{"status": "Ready"}})
	if res.IsError {
		t.Fatal(res.Text)
	}
	if got := ev.next(t); got != (RecordsChangedEvent{b.ID, it.ID, 2}) {
		t.Fatalf("event after the agent's edit = %+v", got)
	}
	if r, err := rb.SaveItem(b.ID, it.ID, 2, RecordEdit{Title: "Pricing", Status: "Draft"}); err != nil || !r.Saved {
		t.Fatalf("save: %+v %v", r, err)
	}
	if got := ev.next(t); got.Version != 3 {
		t.Fatalf("event after the person's save = %+v", got)
	}
	time.Sleep(10 * rb.every)
	if len(ev.ch) != 0 {
		t.Fatalf("a change was announced twice: %+v", <-ev.ch)
	}
}

// TestRecordsBindingAnnouncesDeletes: a Record deleted by another process
// (or a teammate's synced delete) reaches an open board as version 0, once,
// also when another item was added in the same moment.
func TestRecordsBindingAnnouncesDeletes(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	b := newBoard(t, f)
	keep, err := f.s.AddRecord(ctx, b.ID, "Pricing page", "Draft", "")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := f.s.AddRecord(ctx, b.ID, "Old page", "Draft", "")
	if err != nil {
		t.Fatal(err)
	}
	ev := &recordEvents{ch: make(chan RecordsChangedEvent, 100)}
	rb := NewRecordsBinding(f.s, ev)
	rb.every = 20 * time.Millisecond
	if err := rb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rb.Stop)
	db2, err := store.Open(filepath.Join(f.dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	other, err := Open(db2, filepath.Join(f.dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	// One commit adds an item and deletes another: the count of rows alone
	// would not move.
	tx, err := db2.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM record_items WHERE id = ?`, gone.ID); err != nil {
		t.Fatal(err)
	}
	now := formatTime(time.Now())
	added := RecordItem{ID: "rec-added-with-the-delete"}
	if _, err := tx.ExecContext(ctx, `INSERT INTO record_items (id, channel_id, title, fields, status, version, created_at, updated_at)
		VALUES (?, ?, 'New page', '{}', 'Draft', 1, ?, ?)`, added.ID, b.ID, now, now); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for len(got) < 2 {
		e := ev.next(t)
		if e.Channel != b.ID {
			t.Fatalf("event for another channel: %+v", e)
		}
		got[e.Item] = e.Version
	}
	if v, ok := got[gone.ID]; !ok || v != 0 {
		t.Fatalf("events = %+v, want %s deleted (version 0)", got, gone.ID)
	}
	if got[added.ID] != 1 {
		t.Fatalf("events = %+v, want %s at version 1", got, added.ID)
	}
	if err := other.DeleteRecordItem(ctx, b.ID, keep.ID); err != nil {
		t.Fatal(err)
	}
	if e := ev.next(t); e != (RecordsChangedEvent{b.ID, keep.ID, 0}) {
		t.Fatalf("event after a delete = %+v", e)
	}
	time.Sleep(10 * rb.every)
	if len(ev.ch) != 0 {
		t.Fatalf("a delete was announced twice: %+v", <-ev.ch)
	}
}

// TestRecordRacePersonAndAgentLoseNothing is the Notes race run on one
// Record item: the person (the editor's conditional save, re-applying on a
// refusal) and an agent (edit_record_item with expected_version and a new
// idempotency key per attempt) each append lines to the body at once.
func TestRecordRacePersonAndAgentLoseNothing(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	b := newBoard(t, f)
	it, err := f.s.AddRecord(ctx, b.ID, "Pricing page", "Draft", "start")
	if err != nil {
		t.Fatal(err)
	}
	const edits = 60
	var wg sync.WaitGroup
	var conflicts [2]int
	errs := make(chan error, 2)
	wg.Add(2)
	go func() { // the person
		defer wg.Done()
		for i := range edits {
			for {
				cur, err := f.s.GetRecord(ctx, b.ID, it.ID)
				if err != nil {
					errs <- err
					return
				}
				body, _ := cur.Fields[BodyField].(string)
				r, err := f.s.SaveRecordAsPerson(ctx, b.ID, it.ID, cur.Version,
					RecordEdit{Title: cur.Title, Status: cur.Status, Body: body + fmt.Sprintf("\nperson %d", i)})
				if err != nil {
					errs <- err
					return
				}
				if r.Saved {
					break
				}
				conflicts[0]++
			}
		}
	}()
	go func() { // the agent
		defer wg.Done()
		key := 0
		for i := range edits {
			for {
				cur := body(t, f.call(ToolReadRecordItem, map[string]any{"record_channel_id": b.ID, "item_id": it.ID}))
				text, _ := cur["fields"].(map[string]any)[BodyField].(string)
				key++
				res := f.call(ToolEditRecordItem, map[string]any{"record_channel_id": b.ID, "item_id": it.ID,
					"expected_version": cur["version"], "idempotency_key": fmt.Sprintf("race-key-%04d", key),
					"values": map[string]any{BodyField: text + fmt.Sprintf("\nagent %d", i)}})
				if !res.IsError {
					break
				}
				if !strings.Contains(res.Text, "version_conflict") {
					errs <- errors.New(res.Text)
					return
				}
				conflicts[1]++
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := f.s.GetRecord(ctx, b.ID, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(got.Fields[BodyField].(string), "\n")
	lost := 0
	for i := range edits {
		for _, who := range []string{"person", "agent"} {
			want := fmt.Sprintf("%s %d", who, i)
			found := false
			for _, l := range lines {
				found = found || l == want
			}
			if !found {
				lost++
			}
		}
	}
	if lost != 0 || len(lines) != 2*edits+1 {
		t.Fatalf("lost %d of %d lines (%d lines stored)", lost, 2*edits, len(lines))
	}
	if got.Version != 1+2*edits {
		t.Fatalf("version %d, want %d: one bump per applied write", got.Version, 1+2*edits)
	}
	t.Logf("conflicts: person %d, agent %d", conflicts[0], conflicts[1])
}

// A write stamped before one the watcher already read, committed after it
// (its time was taken before it waited for the write lock), still reaches
// an open board.
func TestRecordsBindingAnnouncesALateCommit(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	b := newBoard(t, f)
	ev := &recordEvents{ch: make(chan RecordsChangedEvent, 100)}
	rb := NewRecordsBinding(f.s, ev)
	rb.every = 20 * time.Millisecond
	if err := rb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rb.Stop)
	db2, err := store.Open(filepath.Join(f.dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	insert := func(id string, at time.Time) {
		t.Helper()
		stamp := formatTime(at)
		if _, err := db2.ExecContext(ctx, `INSERT INTO record_items (id, channel_id, title, fields, status, version, created_at, updated_at)
			VALUES (?, ?, 'Page', '{}', 'Draft', 1, ?, ?)`, id, b.ID, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	insert("rec-stamped-later", now)
	if e := ev.next(t); e.Item != "rec-stamped-later" {
		t.Fatalf("first event = %+v", e)
	}
	insert("rec-stamped-earlier", now.Add(-3*time.Second))
	if e := ev.next(t); e != (RecordsChangedEvent{b.ID, "rec-stamped-earlier", 1}) {
		t.Fatalf("event after the late commit = %+v", e)
	}
	time.Sleep(10 * rb.every)
	if len(ev.ch) != 0 {
		t.Fatalf("an item read again was announced again: %+v", <-ev.ch)
	}
}
