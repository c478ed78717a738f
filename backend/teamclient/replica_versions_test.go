package teamclient

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// The team's text always moves a synced Note's version here forward, even
// where the server's version number equals or trails the local one: the
// desktop that lost a race and the one whose edit won (the person's Note
// was one version ahead of the server's since it was made, as a Note made
// on the Notes screen is) both hear of every change of the text on their
// Notes watcher, and an editor or assistant still holding an older version
// cannot save over it (its guarded write is refused, not taken).
func testSyncedVersionsMoveForward(t *testing.T, tm *teamtest.Team) {
	a, b := aliceAndBob(t, tm)
	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	launch, err := a.notes.CreateProject(bg, home.ID, "", "Launch plan")
	must(t, err)
	// Made empty, then written: the Note here is at version 2, the server
	// makes it with its text at version 1.
	q3, err := a.notes.CreateNote(bg, notes.NewNote{Workspace: home.ID, Project: launch.ID, Title: "Q3 launch"})
	must(t, err)
	a.edit(t, q3.ID, "# Q3 launch")
	_, err = a.r.ShareProject(bg, tm.Workspace, launch.ID)
	must(t, err)
	must(t, a.r.Sync(bg))
	must(t, b.r.JoinProject(bg, tm.Workspace, launch.ID))
	wa, wb := a.watch(t), b.watch(t)

	// Both desktops say the project is the team's, by the team workspace's
	// name: alice's, which keeps it in her own workspace, too.
	team := ""
	for _, w := range a.Status(bg).Workspaces {
		if w.ID == tm.Workspace {
			team = w.Name
		}
	}
	pa, err := a.r.TeamPlaces(bg)
	must(t, err)
	pb, err := b.r.TeamPlaces(bg)
	must(t, err)
	if team == "" || pa[launch.ID] != team || pb[launch.ID] != team || len(pa) != 1 {
		t.Fatalf("where the synced project is: alice %v, bob %v, the team workspace %q", pa, pb, team)
	}

	// Both edit offline; alice's edit wins, bob's is kept as a draft.
	a.edit(t, q3.ID, "# Q3 launch\n- alice: caterer booked")
	b.edit(t, q3.ID, "# Q3 launch\n- bob: venue is Hall 2")
	va, vb := a.version(t, q3.ID), b.version(t, q3.ID)
	must(t, a.r.Sync(bg))
	must(t, b.r.Sync(bg))
	if got := b.text(t, q3.ID); got != "# Q3 launch\n- alice: caterer booked" {
		t.Fatalf("bob after losing the race: %q", got)
	}
	if v := b.version(t, q3.ID); v <= vb {
		t.Fatalf("bob's Note took alice's text at version %d, not past %d, the version of his own lost save", v, vb)
	}
	waitFor(t, "bob's watcher to announce alice's text", func() bool { return wb.announced(q3.ID) == b.version(t, q3.ID) },
		b.state(t, q3.ID), server(tm, q3.ID))
	if res, err := b.notes.SaveTabAsPerson(bg, q3.ID, b.tab(t, q3.ID), vb, "bob's stale editor"); err != nil || res.Saved {
		t.Fatalf("a save against version %d, which held bob's lost text, was taken over alice's: %+v %v", vb, res, err)
	}

	// Bob re-applies his change over alice's text: it reaches alice, whose
	// Note moves past the version her own edit left it at.
	both := "# Q3 launch\n- alice: caterer booked\n- bob: venue is Hall 2"
	b.edit(t, q3.ID, both)
	must(t, b.r.Sync(bg))
	must(t, a.r.Sync(bg))
	if got := a.text(t, q3.ID); got != both {
		t.Fatalf("alice after bob's re-apply: %q", got)
	}
	if v := a.version(t, q3.ID); v <= va {
		t.Fatalf("alice's Note took bob's re-applied text at version %d, not past %d, the version her editor holds", v, va)
	}
	waitFor(t, "alice's watcher to announce bob's re-applied text", func() bool { return wa.announced(q3.ID) == a.version(t, q3.ID) },
		a.state(t, q3.ID), server(tm, q3.ID))
	if res, err := a.notes.SaveTabAsPerson(bg, q3.ID, a.tab(t, q3.ID), va, "alice's stale editor"); err != nil || res.Saved {
		t.Fatalf("a save against version %d, alice's own edit, was taken over bob's re-applied text: %+v %v", va, res, err)
	}
	// Nothing of the re-apply goes up again, and both agree.
	must(t, a.r.Sync(bg))
	must(t, b.r.Sync(bg))
	if a.text(t, q3.ID) != both || b.text(t, q3.ID) != both || serverText(tm, q3.ID) != both {
		t.Fatalf("after both synced again: %v %v %v", a.state(t, q3.ID)(), b.state(t, q3.ID)(), server(tm, q3.ID)())
	}
}

// changes is a desktop's Notes watcher, as the window hears it.
type changes struct{ rec *recorder }

// announced is the newest version of noteID the watcher announced.
func (c changes) announced(noteID string) int64 {
	var newest int64
	for _, e := range c.rec.all() {
		data, ok := strings.CutPrefix(e, notes.EventChanged+" ")
		if !ok {
			continue
		}
		var ev notes.ChangedEvent
		if json.Unmarshal([]byte(data), &ev) == nil && ev.NoteID == noteID && ev.Version > newest {
			newest = ev.Version
		}
	}
	return newest
}

// watch starts the Notes watcher the app runs for its window.
func (d *syncDesktop) watch(t *testing.T) changes {
	t.Helper()
	rec := &recorder{}
	w := notes.NewWatcher(d.notes, rec)
	must(t, w.Start())
	t.Cleanup(w.Stop)
	return changes{rec}
}

func (d *syncDesktop) version(t *testing.T, noteID string) int64 {
	t.Helper()
	n, err := d.notes.NoteInfo(bg, noteID)
	must(t, err)
	return n.Version
}

func (d *syncDesktop) tab(t *testing.T, noteID string) string {
	t.Helper()
	n, err := d.notes.GetNote(bg, noteID)
	must(t, err)
	return n.Tabs[0].ID
}

func serverText(tm *teamtest.Team, noteID string) string {
	var text string
	_ = tm.Pool().QueryRow(bg, `SELECT data FROM note_tabs WHERE note_id = $1`, noteID).Scan(&text)
	return text
}
