package notesres_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

func TestPickerListsLiveProjectsAndChannels(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := messages.Open(db, messages.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := notesres.NewPicker(bg, st, ms)
	got, err := p.Projects()
	if err != nil || len(got) != 0 {
		t.Fatalf("empty store: got %+v, %v; want no projects", got, err)
	}
	must(t, err2(st.CreateWorkspace(bg, "ws-b", "Beta")))
	must(t, err2(st.CreateWorkspace(bg, "ws-a", "Acme")))
	must(t, err2(st.CreateProject(bg, "ws-a", "proj-2", "Launch")))
	must(t, err2(st.CreateProject(bg, "ws-a", "proj-1", "Finance")))
	must(t, err2(st.CreateProject(bg, "ws-b", "proj-3", "Hiring")))
	// Record channels are not Message channels: the invite picker never offers them.
	must(t, err2(st.CreateRecordChannel(bg, "ws-a", "proj-2", "rc-1", "Bugs")))
	_, err = ms.Discussion(bg, "ws-a", "proj-2") // opened by the project, not by an invite
	must(t, err)
	support, err := ms.CreateChannel(bg, messages.NewChannel{Workspace: "ws-a", Project: "proj-2", Name: "support"})
	must(t, err)
	news, err := ms.CreateChannel(bg, messages.NewChannel{Workspace: "ws-b", Name: "Announcements", Private: true, Owner: "owner"})
	must(t, err)

	got, err = p.Projects()
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i].Opens = nil // TestPickerProjectsSayWhatTheyOpen
	}
	wantP := []notesres.PickProject{
		{ID: "proj-1", Name: "Finance", Workspace: "ws-a", WorkspaceName: "Acme"},
		{ID: "proj-2", Name: "Launch", Workspace: "ws-a", WorkspaceName: "Acme"},
		{ID: "proj-3", Name: "Hiring", Workspace: "ws-b", WorkspaceName: "Beta"},
	}
	if !reflect.DeepEqual(got, wantP) {
		t.Errorf("projects:\n got %+v\nwant %+v", got, wantP)
	}
	ch, err := p.Channels()
	if err != nil {
		t.Fatal(err)
	}
	wantC := []notesres.PickChannel{
		{ID: support.ID, Name: "support", Kind: "message_channel", Project: "proj-2", Workspace: "ws-a", WorkspaceName: "Acme"},
		{ID: news.ID, Name: "Announcements", Kind: "message_channel", Private: true, Workspace: "ws-b", WorkspaceName: "Beta"},
	}
	if !reflect.DeepEqual(ch, wantC) {
		t.Errorf("channels:\n got %+v\nwant %+v", ch, wantC)
	}
}

// TestPickerProjectsSayWhatTheyOpen: each project offered to Add to project
// lists what adding it opens — its knowledge bases, Record channels and
// discussion channel — read now, so one created after the panel opened is
// there on the next read; the workspaces are named for the panel's header.
func TestPickerProjectsSayWhatTheyOpen(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	must(t, err)
	ms, err := messages.Open(db, messages.Options{})
	must(t, err)
	p := notesres.NewPicker(bg, st, ms)
	must(t, err2(st.CreateWorkspace(bg, "ws-a", "Acme")))
	must(t, err2(st.CreateWorkspace(bg, "ws-e", "Empty")))
	must(t, err2(st.CreateProject(bg, "ws-a", "proj-1", "Launch")))
	must(t, err2(st.CreateKnowledgeBase(bg, "ws-a", "proj-1", "kb-1", "Support")))
	must(t, err2(st.CreateNote(bg, notes.NewNote{ID: "note-1", Workspace: "ws-a", Project: "proj-1", Title: "Plan"})))
	// Another project's channel and a non-discussion channel are not opened by the project.
	must(t, err2(ms.CreateChannel(bg, messages.NewChannel{Workspace: "ws-a", Project: "proj-1", Name: "general"})))
	disc, err := ms.ProjectDiscussion(bg, "proj-1")
	must(t, err)

	opens := func() []notesres.PickResource {
		t.Helper()
		ps, err := p.Projects()
		must(t, err)
		if len(ps) != 1 {
			t.Fatalf("projects %+v", ps)
		}
		return ps[0].Opens
	}
	want := []notesres.PickResource{
		{Kind: "knowledge_base", ID: "kb-1", Name: "Support"},
		{Kind: "message_channel", ID: disc.ID, Name: "discussion"},
	}
	if got := opens(); !reflect.DeepEqual(got, want) {
		t.Errorf("opens:\n got %+v\nwant %+v", got, want)
	}
	// Added after the panel opened: listed on the next read.
	must(t, err2(st.CreateRecordChannel(bg, "ws-a", "proj-1", "rc-1", "Pricing pages")))
	must(t, err2(st.CreateKnowledgeBase(bg, "ws-a", "proj-1", "kb-0", "FAQ")))
	want = []notesres.PickResource{
		{Kind: "knowledge_base", ID: "kb-0", Name: "FAQ"},
		{Kind: "knowledge_base", ID: "kb-1", Name: "Support"},
		{Kind: "record_channel", ID: "rc-1", Name: "Pricing pages"},
		{Kind: "message_channel", ID: disc.ID, Name: "discussion"},
	}
	if got := opens(); !reflect.DeepEqual(got, want) {
		t.Errorf("opens after adding:\n got %+v\nwant %+v", got, want)
	}
	ws, err := p.Workspaces()
	must(t, err)
	if wantW := []notesres.PickWorkspace{{ID: "ws-a", Name: "Acme"}, {ID: "ws-e", Name: "Empty"}}; !reflect.DeepEqual(ws, wantW) {
		t.Errorf("workspaces %+v, want %+v", ws, wantW)
	}
}
