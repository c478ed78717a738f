package notesres_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osfoundry/desktop/backend/connect/notesres"
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
	p := notesres.NewPicker(bg, st)
	got, err := p.Projects()
	if err != nil || len(got) != 0 {
		t.Fatalf("empty store: got %+v, %v; want no projects", got, err)
	}
	must(t, err2(st.CreateWorkspace(bg, "ws-b", "Beta")))
	must(t, err2(st.CreateWorkspace(bg, "ws-a", "Acme")))
	must(t, err2(st.CreateProject(bg, "ws-a", "proj-2", "Launch")))
	must(t, err2(st.CreateProject(bg, "ws-a", "proj-1", "Finance")))
	must(t, err2(st.CreateProject(bg, "ws-b", "proj-3", "Hiring")))
	must(t, err2(st.CreateRecordChannel(bg, "ws-a", "proj-2", "rc-1", "Bugs")))
	must(t, err2(st.CreateRecordChannel(bg, "ws-b", "", "rc-2", "Announcements")))

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
		{ID: "rc-1", Name: "Bugs", Kind: "record_channel", Project: "proj-2", Workspace: "ws-a", WorkspaceName: "Acme"},
		{ID: "rc-2", Name: "Announcements", Kind: "record_channel", Workspace: "ws-b", WorkspaceName: "Beta"},
	}
	if !reflect.DeepEqual(ch, wantC) {
		t.Errorf("channels:\n got %+v\nwant %+v", ch, wantC)
	}
}
