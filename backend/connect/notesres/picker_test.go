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
