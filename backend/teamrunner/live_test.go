package teamrunner

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
	"github.com/osfoundry/desktop/backend/workers"
)

func TestMain(m *testing.M) { os.Exit(teamtest.Main(m)) }

var bg = context.Background()

// The hand-off end to end: an assistant connected to the team server asks
// for a run in a synced project with request_session_run; alice's desktop,
// with "Run work for the team" on, claims it and runs it with the app's
// run engine on the real Claude Code (against the local fake model); the
// model's answer comes back to the assistant, and the model saw the
// assistant's task.
func TestLiveTeamRunOnClaudeCode(t *testing.T) {
	const answer = "The deploy window is Tuesday 14:00 UTC."
	srv := fakemodel.Start(t, fakemodel.Text(answer))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	d := newRunnerDesktop(t, tm, e, "alice-runner")

	var project struct {
		ID string `json:"id"`
	}
	must(t, tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/projects", map[string]string{"name": "Releases"}, &project))
	must(t, d.replica.JoinProject(bg, tm.Workspace, project.ID))
	if _, err := tm.Pool().Exec(bg, `UPDATE teamauth_members SET runner = true WHERE workspace_id = $1
		AND person_id = (SELECT id FROM teamauth_people WHERE email = $2)`, tm.Workspace, teamtest.People["alice"].Email); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(bg)
	defer stop()
	go d.runner.Run(ctx)

	as := connectAssistant(t, tm, project.ID)
	const task = "When is the next deploy window? Answer in one sentence."
	t0 := time.Now()
	got := as.start(t, task, 110)
	for got.State == "queued" || got.State == "running" {
		got = as.read(t, got.ID, 110)
		if time.Since(t0) > 5*time.Minute {
			t.Fatalf("the run did not end: %+v", got)
		}
	}
	t.Logf("asked → answered in %v", time.Since(t0))
	if got.State != "done" || !strings.Contains(got.Answer, answer) || !strings.HasPrefix(got.Requester, "Claude for ") {
		t.Fatalf("the run the assistant reads: %+v", got)
	}
	saw := false
	for _, r := range srv.MainRequests() {
		saw = saw || strings.Contains(string(r.Body), task)
	}
	if !saw {
		t.Fatalf("the model never saw the assistant's task in %d requests", len(srv.MainRequests()))
	}
}

// runnerDesktop is a desktop joined to the team with the app's run engine
// on the real Claude Code and "Run work for the team" on.
type runnerDesktop struct {
	client  *teamclient.Client
	notes   *notes.Store
	replica *teamclient.Replica
	runner  *teamclient.Runner
}

func newRunnerDesktop(t *testing.T, tm *teamtest.Team, e *agentenv.Env, device string) *runnerDesktop {
	t.Helper()
	dir := t.TempDir()
	c := teamclient.New(teamclient.Options{Dir: dir, HTTP: &http.Client{Transport: tm.LB.Client.Transport, Timeout: 30 * time.Second},
		Open: tm.ApproveDesktop(tm.Owner, "alice", "allow"), Device: device,
		Secrets: teamclient.TokenFile{Path: filepath.Join(dir, "team-token")}, JoinTimeout: time.Minute})
	if st, err := c.Join(bg, tm.LB.URL); err != nil || st.State != teamclient.Connected {
		t.Fatalf("joining: %+v %v", st, err)
	}
	return openRunnerDesktop(t, c, dir, e)
}

// openRunnerDesktop opens a joined desktop's database, replica and run
// engine as the app does, with "Run work for the team" on.
func openRunnerDesktop(t *testing.T, c *teamclient.Client, dir string, e *agentenv.Env) *runnerDesktop {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	must(t, err)
	rep, err := teamclient.NewReplica(bg, c, st, nil)
	must(t, err)
	t.Cleanup(rep.Close)
	var r *teamclient.Runner
	if e != nil {
		term := terminal.NewManager(nil)
		t.Cleanup(term.CloseAll)
		w, err := workers.Open(bg, workers.Options{DB: db, Memory: st, Terminal: term, DataDir: t.TempDir(),
			Env: agentcli.Env{Home: e.Home, Environ: e.Env, Path: strings.TrimPrefix(e.Env[0], "PATH=")}})
		must(t, err)
		t.Cleanup(func() { w.Close() })
		_, err = w.Chat.Roles().SetRoleModel(bg, "Worker", agentcli.ModelClaudeAgent)
		must(t, err)
		_, err = w.Chat.Roles().AddFolder(bg, e.Work)
		must(t, err)
		r, err = teamclient.NewRunner(bg, c, db, Exec(w.Orchestrator, rep), nil)
		must(t, err)
		r.UseReplica(rep)
		must(t, r.SetEnabled(bg, true))
	}
	return &runnerDesktop{client: c, notes: st, replica: rep, runner: r}
}

// assistant is an MCP client connected to the team server as alice's,
// with the run scope and the project granted.
type assistant struct {
	mcp     *connecttest.Client
	project string
}

func connectAssistant(t *testing.T, tm *teamtest.Team, project string) *assistant {
	t.Helper()
	mcp := &connecttest.Client{HTTP: tm.LB.Client, Resource: tm.LB.URL + "/mcp", Name: "Claude", Redirect: "http://127.0.0.1:1/cb",
		Scope: "osfoundry:read osfoundry:run", Browser: &connecttest.Browser{Base: tm.LB.URL, Client: tm.Owner.Once}}
	if tok, _, err := mcp.Discover(bg); err != nil || tok.AccessToken == "" {
		t.Fatalf("connecting the assistant: %+v %v", tok, err)
	}
	var mine []struct {
		ID string `json:"id"`
	}
	must(t, tm.Owner.API("GET", tm.LB.URL+"/api/connections", nil, &mine))
	must(t, tm.Owner.API("PUT", tm.LB.URL+"/api/connections/"+mine[0].ID+"/projects/"+url.PathEscape(project), nil, nil))
	return &assistant{mcp: mcp, project: project}
}

// start asks for a run, again while no runner is online yet (its first
// offer is on its way), and waits up to wait seconds for it to end.
func (a *assistant) start(t *testing.T, task string, wait int) teamclient.TeamRun {
	t.Helper()
	var got teamclient.TeamRun
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		res, err := a.mcp.Call(bg, "request_session_run", map[string]any{"project_id": a.project, "task": task, "wait_seconds": wait})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError && strings.Contains(res.Text, "no desktop runs work") && time.Now().Before(deadline) {
			continue
		}
		if res.IsError || json.Unmarshal([]byte(res.Text), &got) != nil {
			t.Fatalf("the assistant's request: %+v", res)
		}
		return got
	}
}

// read reads a run, waiting up to wait seconds for it to end.
func (a *assistant) read(t *testing.T, id string, wait int) teamclient.TeamRun {
	t.Helper()
	var got teamclient.TeamRun
	res, err := a.mcp.Call(bg, "request_session_run", map[string]any{"run_id": id, "wait_seconds": wait})
	if err != nil || res.IsError || json.Unmarshal([]byte(res.Text), &got) != nil {
		t.Fatalf("reading the run: %+v %v", res, err)
	}
	return got
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
