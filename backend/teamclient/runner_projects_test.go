package teamclient

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// A run goes only to a desktop that syncs its project: with alice's
// runner desktop syncing one project, a run asked for in another is
// refused at once (it would fail on her desktop), and once she syncs that
// project too, the run goes to her desktop and is done.
func testRunsOnlyWhereSynced(t *testing.T, tm *teamtest.Team) {
	_ = tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/members",
		map[string]any{"email": teamtest.People["bob"].Email, "role": "editor"}, nil) // may be a member already
	bob := newSyncDesktop(t, tm, tm.LB.NewBrowser(tm.OP), "bob")
	if _, err := tm.Pool().Exec(bg, `UPDATE teamauth_members SET runner = true WHERE workspace_id = $1
		AND person_id = (SELECT id FROM teamauth_people WHERE email = $2)`, tm.Workspace, teamtest.People["bob"].Email); err != nil {
		t.Fatal(err)
	}
	var here, elsewhere struct {
		ID string `json:"id"`
	}
	must(t, tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/projects", map[string]string{"name": "Synced on alice's"}, &here))
	must(t, tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/projects", map[string]string{"name": "Not yet"}, &elsewhere))
	ask := func(project, task string) (TeamRun, error) {
		var r TeamRun
		_, err := bob.Call(bg, http.MethodPost, "/api/runs/"+url.PathEscape(tm.Workspace), map[string]string{"project_id": project, "task": task}, &r)
		return r, err
	}
	read := func(id string) TeamRun {
		var r TeamRun
		if _, err := bob.Call(bg, http.MethodGet, "/api/runs/"+url.PathEscape(tm.Workspace)+"/"+url.PathEscape(id), nil, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Runner desktops of the earlier checks say nothing of their projects
	// (they take any): only alice's desktop below offers here.
	if _, err := tm.Pool().Exec(bg, `DELETE FROM team_runners WHERE workspace_id = $1`, tm.Workspace); err != nil {
		t.Fatal(err)
	}

	alice := newSyncDesktop(t, tm, tm.Owner, "alice")
	alice.o.Device = "alice-synced"
	must(t, alice.r.JoinProject(bg, tm.Workspace, here.ID))
	runner := newRunner(t, alice.desktop, func(_ context.Context, r TeamRun, _ func(string)) (string, error) {
		if _, err := alice.r.LocalWorkspace(bg, r.Project); err != nil {
			return "", err
		}
		return "done in " + r.Project, nil
	})
	runner.UseReplica(alice.r)
	must(t, runner.SetEnabled(bg, true))
	ctx, stop := context.WithCancel(bg)
	defer stop()
	go runner.Run(ctx)

	var run TeamRun
	waitFor(t, "alice's runner to be online", func() bool {
		var err error
		run, err = ask(here.ID, "in the synced project")
		return err == nil
	})
	waitFor(t, "the run in the synced project", func() bool { return read(run.ID).State == "done" })
	if _, err := ask(elsewhere.ID, "in the other project"); err == nil || !strings.Contains(err.Error(), "syncs this project") {
		t.Fatalf("a run in a project no runner desktop syncs: %v", err)
	}

	must(t, alice.r.JoinProject(bg, tm.Workspace, elsewhere.ID))
	waitFor(t, "alice's runner to offer for the project she now syncs", func() bool {
		var err error
		run, err = ask(elsewhere.ID, "in the other project")
		return err == nil
	})
	waitFor(t, "the run in the newly synced project", func() bool { return read(run.ID).State == "done" })
	if got := read(run.ID); got.Answer != "done in "+elsewhere.ID {
		t.Fatalf("the run in the newly synced project: %+v", got)
	}
}
