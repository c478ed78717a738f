package notesres_test

import (
	"errors"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/notesres"
)

// An approved import writes new versions into the real notes store: a
// Note gets a tab per file (the tab of the same name a new version), a
// knowledge base an article per file; a destination of another project is
// refused before anything is written.
func TestImportsWriteNewVersions(t *testing.T) {
	w := newWorld(t)
	im := notesres.Imports(w.notes)

	title, current, err := im.Destination(bg, "proj-a", connect.ImportIntoNote, "note-a1", []string{"plan.md"})
	if err != nil || title != "Q3 launch checklist" || len(current) != 0 {
		t.Fatalf("destination = %q %v %v", title, current, err)
	}
	before, _ := w.notes.GetNote(bg, "note-a1")
	got, err := im.Import(bg, "proj-a", connect.ImportIntoNote, "note-a1", []connect.ImportFile{{Name: "plan.md", Content: "# Plan"}}, "Connected: Claude")
	if err != nil || len(got) != 1 || got[0].Version <= before.Version {
		t.Fatalf("import = %+v, %v (note was at version %d)", got, err, before.Version)
	}
	// The same name again: the tab's new version, shown beside the old text first.
	_, current, err = im.Destination(bg, "proj-a", connect.ImportIntoNote, "note-a1", []string{"plan.md"})
	if err != nil || current["plan.md"] != "# Plan" {
		t.Fatalf("current = %v, %v", current, err)
	}
	again, err := im.Import(bg, "proj-a", connect.ImportIntoNote, "note-a1", []connect.ImportFile{{Name: "plan.md", Content: "# Plan v2"}}, "Connected: Claude")
	if err != nil || again[0].ID != got[0].ID || again[0].Version <= got[0].Version {
		t.Fatalf("second import = %+v, %v; want a new version of tab %s", again, err, got[0].ID)
	}
	n, _ := w.notes.GetNote(bg, "note-a1")
	if len(n.Tabs) != 2 || n.Tabs[1].Text == nil || *n.Tabs[1].Text != "# Plan v2" || n.Version != again[0].Version {
		t.Fatalf("note now: %d tabs, version %d", len(n.Tabs), n.Version)
	}

	kb, err := w.notes.CreateKnowledgeBase(bg, "ws-acme", "proj-a", "", "Handbook")
	must(t, err)
	arts, err := im.Import(bg, "proj-a", connect.ImportIntoKnowledgeBase, kb.ID, []connect.ImportFile{{Name: "Onboarding", Content: "Day one"}}, "Connected: Claude")
	if err != nil || len(arts) != 1 || arts[0].Version != 1 {
		t.Fatalf("article import = %+v, %v", arts, err)
	}
	arts2, err := im.Import(bg, "proj-a", connect.ImportIntoKnowledgeBase, kb.ID, []connect.ImportFile{{Name: "Onboarding", Content: "Day one, two"}}, "Connected: Claude")
	if err != nil || arts2[0].ID != arts[0].ID || arts2[0].Version != 2 {
		t.Fatalf("second article import = %+v, %v", arts2, err)
	}

	// Another project's Note is not a destination, and nothing is written.
	if _, _, err := im.Destination(bg, "proj-a", connect.ImportIntoNote, "note-b1", nil); !errors.Is(err, connect.ErrNoDestination) {
		t.Fatalf("proj-b's note from proj-a: %v", err)
	}
	if _, err := im.Import(bg, "proj-a", connect.ImportIntoNote, "note-b1", []connect.ImportFile{{Name: "x", Content: "x"}}, "x"); !errors.Is(err, connect.ErrNoDestination) {
		t.Fatalf("import into proj-b's note: %v", err)
	}
	if b, _ := w.notes.GetNote(bg, "note-b1"); len(b.Tabs) != 1 {
		t.Fatalf("proj-b's note got %d tabs", len(b.Tabs))
	}
}
