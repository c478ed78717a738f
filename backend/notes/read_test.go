package notes

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

func TestToolContract(t *testing.T) {
	f := newFixture(t, Options{})
	reads := []string{ToolListNoteTabs, ToolReadNoteTab, ToolReadSheetRange, ToolListNoteAttachments,
		ToolSearchKnowledgeBase, ToolReadKnowledgeArticle, ToolListRecordItems, ToolReadRecordItem}
	writes := []string{ToolEditNoteTab, ToolCreateNoteTab, ToolAddNoteSource, ToolEditRecordItem}
	all := f.s.Tools()
	if len(all) != len(reads)+len(writes) {
		t.Fatalf("%d tools, want %d", len(all), len(reads)+len(writes))
	}
	for _, tl := range all {
		var sch struct {
			Type       string         `json:"type"`
			Required   []string       `json:"required"`
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(tl.InputSchema, &sch); err != nil || sch.Type != "object" {
			t.Fatalf("%s: schema is not an object: %s", tl.Name, tl.InputSchema)
		}
		for _, r := range sch.Required {
			if sch.Properties[r] == nil {
				t.Errorf("%s: required %s has no property", tl.Name, r)
			}
		}
		switch {
		case slices.Contains(reads, tl.Name):
			if !tl.ReadOnly || tl.Destructive || tl.Scope != tools.ScopeRead {
				t.Errorf("%s: read tool must be ReadOnly with scope %s", tl.Name, tools.ScopeRead)
			}
		case slices.Contains(writes, tl.Name):
			if tl.ReadOnly || !tl.Destructive || tl.Scope != tools.ScopeWrite {
				t.Errorf("%s: write tool must be Destructive with scope %s", tl.Name, tools.ScopeWrite)
			}
			if !slices.Contains(sch.Required, "expected_version") || !slices.Contains(sch.Required, "idempotency_key") {
				t.Errorf("%s: write must require expected_version and idempotency_key, requires %v", tl.Name, sch.Required)
			}
			if !strings.Contains(tl.Description, "re-apply") || !strings.Contains(tl.Description, "NEW idempotency_key") {
				t.Errorf("%s: description must tell the model to re-apply with a new key", tl.Name)
			}
		default:
			t.Errorf("unexpected tool %s", tl.Name)
		}
		if tl.Name == ToolEditNoteTab {
			want := []string{"note_id", "tab_id", "expected_version", "idempotency_key", "operation"}
			if !slices.Equal(sch.Required, want) {
				t.Errorf("edit_note_tab requires %v, want %v", sch.Required, want)
			}
		}
	}
}

func TestSheetSlidesAndSources(t *testing.T) {
	f := newFixture(t, Options{})
	created := body(t, f.call(ToolCreateNoteTab, map[string]any{"note_id": "note-1", "expected_version": 1,
		"idempotency_key": "create-sheet-1", "kind": "sheet", "title": "Owners"}))
	sheet := created["tab_id"].(string)
	r := f.call(ToolEditNoteTab, map[string]any{"note_id": "note-1", "tab_id": sheet, "expected_version": 2, "idempotency_key": "set-range-01",
		"operation": "sheet_set_range", "start_row": 1, "start_col": 2, "values": [][]any{{"Ana", 3}, {"Bo", true}}})
	if r.IsError {
		t.Fatal(r.Text)
	}
	got := body(t, f.call(ToolReadSheetRange, map[string]any{"note_id": "note-1", "tab_id": sheet, "start_row": 1, "start_col": 2, "row_count": 3, "col_count": 2}))
	b, _ := json.Marshal(got["values"])
	if string(b) != `[["Ana",3],["Bo",true],[null,null]]` || got["version"].(float64) != 3 {
		t.Fatalf("range = %s version %v", b, got["version"])
	}
	slides := body(t, f.call(ToolCreateNoteTab, map[string]any{"note_id": "note-1", "expected_version": 3,
		"idempotency_key": "create-slides1", "kind": "slides", "title": "Deck"}))["tab_id"].(string)
	if r := f.call(ToolEditNoteTab, map[string]any{"note_id": "note-1", "tab_id": slides, "expected_version": 4, "idempotency_key": "outline-0001",
		"operation": "slides_add_outline", "outline": []map[string]any{{"title": "Why"}, {"title": "How", "body": "- fast"}}}); r.IsError {
		t.Fatal(r.Text)
	}
	if r := f.call(ToolEditNoteTab, map[string]any{"note_id": "note-1", "tab_id": slides, "expected_version": 5, "idempotency_key": "slide-add-01",
		"operation": "slide_add", "title": "Intro", "position": 0}); r.IsError {
		t.Fatal(r.Text)
	}
	deck := body(t, f.call(ToolReadNoteTab, map[string]any{"note_id": "note-1", "tab_id": slides}))["slides"].([]any)
	if len(deck) != 3 || deck[0].(map[string]any)["title"] != "Intro" || deck[2].(map[string]any)["title"] != "How" {
		t.Fatalf("slides = %v", deck)
	}
	src := f.call(ToolAddNoteSource, map[string]any{"note_id": "note-1", "expected_version": 6, "idempotency_key": "source-00001",
		"title": "Refund policy", "url": "https://example.com/refunds", "content": "30 days"})
	if src.IsError {
		t.Fatal(src.Text)
	}
	srcTab := body(t, src)["tab_id"].(string)
	list := body(t, f.call(ToolListNoteAttachments, map[string]any{"note_id": "note-1"}))["attachments"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["url"] != "https://example.com/refunds" {
		t.Fatalf("attachments = %v", list)
	}
	r = f.call(ToolEditNoteTab, map[string]any{"note_id": "note-1", "tab_id": srcTab, "expected_version": 7, "idempotency_key": "edit-src-001",
		"operation": "replace_tab_data", "data": map[string]any{"slides": []any{}}})
	if !r.IsError || !strings.Contains(r.Text, "File and Source attachments cannot be edited") {
		t.Fatalf("editing a source: %s", r.Text)
	}
	tabs := body(t, f.call(ToolListNoteTabs, map[string]any{"note_id": "note-1"}))
	if len(tabs["tabs"].([]any)) != 4 || tabs["version"].(float64) != 7 {
		t.Fatalf("list_note_tabs = %v", tabs)
	}
}

func TestRecordsAndKnowledge(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	if _, err := f.s.CreateRecordChannel(ctx, "ws-1", "proj-a", "rc-1", "Launch"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.CreateRecordItem(ctx, "rc-1", "rec-1", "pricing page", "Draft", map[string]any{"owner": "ana"}); err != nil {
		t.Fatal(err)
	}
	edit := func(v int, key string, vals map[string]any) tools.Result {
		return f.call(ToolEditRecordItem, map[string]any{"record_channel_id": "rc-1", "item_id": "rec-1", "values": vals,
			"expected_version": v, "idempotency_key": key})
	}
	if r := edit(1, "rec-edit-0001", map[string]any{"status": "Ready"}); r.IsError || body(t, r)["version"].(float64) != 2 {
		t.Fatalf("edit: %s", r.Text)
	}
	if r := edit(1, "rec-edit-0002", map[string]any{"status": "Fixed"}); !r.IsError || body(t, r)["error"] != "version_conflict" {
		t.Fatalf("stale record edit: %s", r.Text)
	}
	if r := edit(1, "rec-edit-0001", map[string]any{"status": "Ready"}); body(t, r)["replayed"] != true {
		t.Fatalf("replay: %s", r.Text)
	}
	item := body(t, f.call(ToolReadRecordItem, map[string]any{"record_channel_id": "rc-1", "item_id": "rec-1"}))
	if item["status"] != "Ready" || item["version"].(float64) != 2 || item["fields"].(map[string]any)["owner"] != "ana" {
		t.Fatalf("item = %v", item)
	}

	if _, err := f.s.CreateKnowledgeBase(ctx, "ws-1", "proj-a", "kb-1", "Support"); err != nil {
		t.Fatal(err)
	}
	art, err := f.s.PutArticle(ctx, "kb-1", "", "Refund policy", "Refunds are accepted within 30 days of the invoice.")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.PutArticle(ctx, "kb-1", "", "Shipping", "Parcels leave within two days."); err != nil {
		t.Fatal(err)
	}
	hits := body(t, f.call(ToolSearchKnowledgeBase, map[string]any{"knowledge_base_id": "kb-1", "query": "refund window?"}))["articles"].([]any)
	if len(hits) != 1 || hits[0].(map[string]any)["article_id"] != art.ID || hits[0].(map[string]any)["updated_at"] == "" {
		t.Fatalf("search hits = %v", hits)
	}
	got := body(t, f.call(ToolReadKnowledgeArticle, map[string]any{"knowledge_base_id": "kb-1", "article_id": art.ID}))
	if !strings.Contains(got["body"].(string), "30 days") {
		t.Fatalf("article = %v", got)
	}
	if r := f.callIn("ws-other", ToolReadKnowledgeArticle, map[string]any{"knowledge_base_id": "kb-1", "article_id": art.ID}); !r.IsError {
		t.Fatal("article readable from another workspace")
	}
}

func TestMemorySearchReindexesFiles(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	kdir := filepath.Join(f.dir, "knowledge", "sessions")
	if err := os.MkdirAll(kdir, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(kdir, "done.md")
	write := func(s string, mtime time.Time) {
		if err := os.WriteFile(file, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	kinds := func(q string) []string {
		hits, err := f.s.MemorySearch(ctx, "ws-1", q, 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h.Kind+":"+h.ID)
		}
		slices.Sort(out)
		return out
	}
	write("# Session done\nMigrated the billing tables.", time.Unix(1_700_000_000, 0))
	if got := kinds("billing"); !slices.Equal(got, []string{"knowledge_file:sessions/done.md"}) {
		t.Fatalf("billing → %v", got)
	}
	// A changed file (size and mtime) is re-read; the old words are gone.
	write("# Session done\nRotated the signing keys today.", time.Unix(1_700_000_100, 0))
	if got := kinds("billing"); len(got) != 0 {
		t.Fatalf("stale file content still found: %v", got)
	}
	// A Note edit is picked up by version.
	if r := f.call(ToolEditNoteTab, f.edit(1, "key-search-01", "the signing keys live in the vault")); r.IsError {
		t.Fatal(r.Text)
	}
	if got := kinds("signing keys"); !slices.Equal(got, []string{"knowledge_file:sessions/done.md", "note:note-1"}) {
		t.Fatalf("signing keys → %v", got)
	}
	// Other workspaces do not see the Note; removed files disappear.
	hits, err := f.s.MemorySearch(ctx, "ws-2", "vault", 10)
	if err != nil || len(hits) != 0 {
		t.Fatalf("ws-2 sees %v (%v)", hits, err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if got := kinds("signing"); !slices.Equal(got, []string{"note:note-1"}) {
		t.Fatalf("after removal → %v", got)
	}
	// FTS syntax in a query is treated as words.
	if _, err := f.s.MemorySearch(ctx, "ws-1", `"unbalanced AND (OR* NEAR`, 5); err != nil {
		t.Fatalf("query syntax leaked into FTS: %v", err)
	}
}

func TestTargetsAndMoves(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	if _, err := f.s.CreateProject(ctx, "ws-1", "proj-b", "B"); err != nil {
		t.Fatal(err)
	}
	tg, err := f.s.CallTarget(ctx, ToolReadNoteTab, json.RawMessage(`{"note_id":"note-1","tab_id":"x"}`))
	if err != nil || tg != (Target{Kind: ResourceNote, ID: "note-1", Workspace: "ws-1", Project: "proj-a"}) {
		t.Fatalf("target = %+v, %v", tg, err)
	}
	if err := f.s.MoveNote(ctx, "note-1", "proj-b"); err != nil {
		t.Fatal(err)
	}
	tg, _ = f.s.CallTarget(ctx, ToolEditNoteTab, json.RawMessage(`{"note_id":"note-1"}`))
	if tg.Project != "proj-b" {
		t.Fatalf("after move, project = %q", tg.Project)
	}
	res, err := f.s.ProjectResources(ctx, "proj-a")
	if err != nil || len(res) != 0 {
		t.Fatalf("proj-a resources after move = %v", res)
	}
	res, _ = f.s.ProjectResources(ctx, "proj-b")
	if len(res) != 1 || res[0] != (Resource{Kind: ResourceNote, ID: "note-1", Title: "Q3 launch checklist", Project: "proj-b"}) {
		t.Fatalf("proj-b resources = %v", res)
	}
	cases := []struct {
		tool, args string
		want       error
	}{
		{ToolReadNoteTab, `{"note_id":"note-zz"}`, ErrNotFound},
		{ToolReadNoteTab, `{}`, ErrInvalid},
		{ToolReadNoteTab, `{"note_id":7}`, ErrInvalid},
		{"write_file", `{}`, ErrUnknownTool},
		{ToolListRecordItems, `{"record_channel_id":"rc-none"}`, ErrNotFound},
	}
	for _, c := range cases {
		if _, err := f.s.CallTarget(ctx, c.tool, json.RawMessage(c.args)); !errors.Is(err, c.want) {
			t.Errorf("%s %s: err %v, want %v", c.tool, c.args, err, c.want)
		}
	}
	// A project of another workspace is refused.
	if _, err := f.s.CreateWorkspace(ctx, "ws-2", "Other"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.CreateProject(ctx, "ws-2", "proj-x", "X"); err != nil {
		t.Fatal(err)
	}
	if err := f.s.MoveNote(ctx, "note-1", "proj-x"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("cross-workspace move: %v", err)
	}
}

func TestPersonSaveIsConditional(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	var changes []int64
	unsub := f.s.OnChange(func(id string, v int64) { changes = append(changes, v) })
	// The agent edits first; the person's editor still holds version 1.
	if r := f.call(ToolEditNoteTab, f.edit(1, "key-agent-001", "first line\nagent line")); r.IsError {
		t.Fatal(r.Text)
	}
	res, err := f.s.SaveTabAsPerson(ctx, "note-1", f.tab, 1, "first line\nperson line")
	if err != nil {
		t.Fatal(err)
	}
	if res.Saved || res.Version != 2 || res.Current == nil || *res.Current.Text != "first line\nagent line" {
		t.Fatalf("stale person save: %+v", res)
	}
	res, err = f.s.SaveTabAsPerson(ctx, "note-1", f.tab, 2, "first line\nagent line\nperson line")
	if err != nil || !res.Saved || res.Version != 3 {
		t.Fatalf("re-applied save: %+v %v", res, err)
	}
	unsub()
	if _, err := f.s.SaveTabAsPerson(ctx, "note-1", f.tab, 3, "x"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(changes, []int64{2, 3}) {
		t.Fatalf("OnChange saw %v, want [2 3] (and nothing after unsubscribe)", changes)
	}
	if _, err := f.s.SaveTabAsPerson(ctx, "note-1", f.tab, 4, strings.Repeat("x", MaxTextBytes+1)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("huge person save: %v", err)
	}
	if _, err := f.s.SaveTabAsPerson(ctx, "note-2", f.tab, 4, "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("tab of another note: %v", err)
	}
}

func TestMillisecondVersionsCollide(t *testing.T) {
	// A frozen clock makes two writes share a millisecond; the stale
	// writer then passes the check. The counter refuses it.
	frozen := time.UnixMilli(1_800_000_000_000)
	for _, c := range []struct {
		v        VersionSource
		wantLost bool
	}{{VersionMillis, true}, {VersionCounter, false}} {
		f := newFixture(t, Options{Versions: c.v, Now: func() time.Time { return frozen }})
		v0 := f.version()
		if r := f.call(ToolEditNoteTab, f.edit(v0, "key-first-01", "first line\nA")); r.IsError {
			t.Fatal(r.Text)
		}
		v1 := f.version()
		// B read v1, then A writes again in the same millisecond.
		if r := f.call(ToolEditNoteTab, f.edit(v1, "key-second-1", "first line\nA\nA2")); r.IsError {
			t.Fatal(r.Text)
		}
		r := f.call(ToolEditNoteTab, f.edit(v1, "key-stale-01", "first line\nA\nB"))
		lost := !r.IsError
		if lost != c.wantLost {
			t.Fatalf("versions %v: stale write accepted = %v, want %v (%s)", c.v, lost, c.wantLost, r.Text)
		}
	}
}
