package teamclient

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// Moving a project to Synced while the server cannot be reached: the move
// waits (Settings → Team lists it as waiting), survives the app being
// restarted, can be cancelled, and happens by itself once the server is
// back, with the Notes written meanwhile.
func testShareOffline(t *testing.T, tm *teamtest.Team) {
	a := newSyncDesktop(t, tm, tm.Owner, "alice")
	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	trip, err := a.notes.CreateProject(bg, home.ID, "", "Offsite")
	must(t, err)
	other, err := a.notes.CreateProject(bg, home.ID, "", "Maybe later")
	must(t, err)
	agenda, err := a.notes.CreateNote(bg, notes.NewNote{Workspace: home.ID, Project: trip.ID, Title: "Agenda", Text: "- day 1"})
	must(t, err)

	a.net.on.Store(true)
	for _, p := range []string{trip.ID, other.ID} {
		if queued, err := a.r.ShareProject(bg, tm.Workspace, p); err != nil || !queued {
			t.Fatalf("moving %s to Synced offline: queued %v, %v", p, queued, err)
		}
	}
	if _, err := a.r.ShareProject(bg, "", trip.ID); err == nil {
		t.Fatal("a move with no workspace was taken")
	}
	pv, err := a.r.Projects(bg)
	must(t, err)
	if len(pv.Waiting) != 2 || len(pv.Synced) != 0 || len(pv.LocalOnly) != 0 || pv.Waiting[0].Workspace != tm.Workspace || pv.Offline == "" {
		t.Fatalf("projects while the move waits: %+v", pv)
	}
	if err := a.r.Sync(bg); err == nil || !IsUnreachable(err) {
		t.Fatalf("a sync pass offline: %v", err)
	}
	a.edit(t, agenda.ID, "- day 1\n- written while waiting")

	// The app restarts, still offline: the moves are still owed.
	a.open(t)
	pv, err = a.r.Projects(bg)
	must(t, err)
	if len(pv.Waiting) != 2 {
		t.Fatalf("after a restart the waiting moves are forgotten: %+v", pv)
	}
	must(t, a.r.CancelShare(bg, other.ID))
	if err := a.r.CancelShare(bg, other.ID); err == nil || !strings.Contains(err.Error(), "not waiting") {
		t.Fatalf("cancelling twice: %v", err)
	}

	// The server is back: Run carries out the move by itself.
	a.net.on.Store(false)
	stop := runReplicas(a)
	defer stop()
	var text string
	waitFor(t, "the waiting move to reach the server", func() bool {
		err := tm.Pool().QueryRow(bg, `SELECT t.data FROM notes n JOIN note_tabs t ON t.note_id = n.id
			WHERE n.id = $1 AND n.project_id = $2 AND n.workspace_id = $3`, agenda.ID, trip.ID, tm.Workspace).Scan(&text)
		return err == nil && text == "- day 1\n- written while waiting"
	}, a.state(t, agenda.ID), server(tm, agenda.ID))
	stop()
	pv, err = a.r.Projects(bg)
	must(t, err)
	if len(pv.Waiting) != 0 || len(pv.Synced) != 1 || pv.Synced[0].ID != trip.ID || len(pv.LocalOnly) != 1 || pv.LocalOnly[0].ID != other.ID {
		t.Fatalf("projects after the move: %+v", pv)
	}
	var leaked int
	must(t, tm.Pool().QueryRow(bg, `SELECT count(*) FROM projects WHERE id = $1`, other.ID).Scan(&leaked))
	if leaked != 0 {
		t.Fatal("the cancelled move reached the server")
	}
}
