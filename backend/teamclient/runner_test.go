package teamclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// Runs go to desktops: bob (runner role) asks for a run in the team
// workspace; with no desktop offering, he is told at once. Alice's desktop
// with "Run work for the team" on claims it, does it and the answer comes
// back to bob; bob's own desktop, with it off (the default), never claims
// one. A desktop process killed mid-run lets its lease lapse: the run
// reads Interrupted for bob and is not started again.
func testTeamRuns(t *testing.T, tm *teamtest.Team) {
	_ = tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/members",
		map[string]any{"email": teamtest.People["bob"].Email, "role": "editor"}, nil) // may be a member already
	bob := newSyncDesktop(t, tm, tm.LB.NewBrowser(tm.OP), "bob")
	if _, err := tm.Pool().Exec(bg, `UPDATE teamauth_members SET runner = true WHERE workspace_id = $1
		AND person_id = (SELECT id FROM teamauth_people WHERE email = $2)`, tm.Workspace, teamtest.People["bob"].Email); err != nil {
		t.Fatal(err)
	}
	var project struct {
		ID string `json:"id"`
	}
	must(t, tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/projects", map[string]string{"name": "Runs"}, &project))
	ask := func(task string) (TeamRun, error) {
		var r TeamRun
		_, err := bob.Call(bg, http.MethodPost, "/api/runs/"+url.PathEscape(tm.Workspace), map[string]string{"project_id": project.ID, "task": task}, &r)
		return r, err
	}
	read := func(id string) TeamRun {
		var r TeamRun
		if _, err := bob.Call(bg, http.MethodGet, "/api/runs/"+url.PathEscape(tm.Workspace)+"/"+url.PathEscape(id), nil, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}

	// Nobody offers: told at once, nothing queued.
	if _, err := ask("anyone?"); err == nil || !strings.Contains(err.Error(), "no desktop runs work for this workspace") {
		t.Fatalf("asking with no runner online: %v", err)
	}
	// bob's desktop has the switch, off by default: it offers nothing.
	bobRunner := newRunner(t, bob.desktop, func(context.Context, TeamRun, func(string)) (string, error) {
		return "", errors.New("bob's desktop must not run team work")
	})
	if on, err := bobRunner.Enabled(bg); err != nil || on {
		t.Fatalf("Run work for the team is on by default: %v %v", on, err)
	}
	ctx, stop := context.WithCancel(bg)
	defer stop()
	go bobRunner.Run(ctx)

	// Alice's desktop runs work for the team.
	alice := newDesktop(t, tm, approveAs(t, tm, tm.Owner, "alice", "allow"))
	alice.o.Device = "alice-runner"
	if _, err := alice.Join(bg, tm.LB.URL); err != nil {
		t.Fatal(err)
	}
	runner := newRunner(t, alice, func(_ context.Context, r TeamRun, progress func(string)) (string, error) {
		progress("reading " + r.Task)
		return "the answer to " + r.Task + " is 42", nil
	})
	must(t, runner.SetEnabled(bg, true))
	go runner.Run(ctx)
	var run TeamRun
	waitFor(t, "a runner to be online", func() bool {
		var err error
		run, err = ask("the question")
		return err == nil
	})
	waitFor(t, "the run's answer", func() bool { return read(run.ID).State == "done" })
	if got := read(run.ID); got.Answer != "the answer to the question is 42" || got.Requester == "" {
		t.Fatalf("the run bob reads: %+v", got)
	}

	// An assistant connected to the server asks through request_session_run,
	// as alice (who approved it); the runner role is hers to need.
	mcp := &connecttest.Client{HTTP: tm.LB.Client, Resource: tm.LB.URL + "/mcp", Name: "Claude", Redirect: "http://127.0.0.1:1/cb",
		Scope: "osfoundry:read osfoundry:run", Browser: &connecttest.Browser{Base: tm.LB.URL, Client: tm.Owner.Once}}
	if tok, _, err := mcp.Discover(bg); err != nil || tok.AccessToken == "" {
		t.Fatalf("connecting the assistant: %+v %v", tok, err)
	}
	var mine []struct {
		ID string `json:"id"`
	}
	must(t, tm.Owner.API("GET", tm.LB.URL+"/api/connections", nil, &mine))
	must(t, tm.Owner.API("PUT", tm.LB.URL+"/api/connections/"+mine[0].ID+"/projects/"+url.PathEscape(project.ID), nil, nil))
	res, err := mcp.Call(bg, "request_session_run", map[string]any{"project_id": project.ID, "task": "the assistant's question"})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "runner role") {
		t.Fatalf("an assistant of a person without the runner role: %+v %v", res, err)
	}
	if _, err := tm.Pool().Exec(bg, `UPDATE teamauth_members SET runner = true WHERE workspace_id = $1
		AND person_id = (SELECT id FROM teamauth_people WHERE email = $2)`, tm.Workspace, teamtest.People["alice"].Email); err != nil {
		t.Fatal(err)
	}
	res, err = mcp.Call(bg, "request_session_run", map[string]any{"project_id": project.ID, "task": "the assistant's question", "wait_seconds": 60})
	var got TeamRun
	if err != nil || res.IsError || json.Unmarshal([]byte(res.Text), &got) != nil || got.State != "done" ||
		got.Answer != "the answer to the assistant's question is 42" || !strings.HasPrefix(got.Requester, "Claude for ") {
		t.Fatalf("the assistant's run: %+v %v", res, err)
	}
	stop()

	// A desktop process killed mid-run.
	killed := newDesktop(t, tm, approveAs(t, tm, tm.Owner, "alice", "allow"))
	killed.o.Device = "alice-killed"
	if _, err := killed.Join(bg, tm.LB.URL); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunnerProcess$")
	cmd.Env = append(os.Environ(), "OSF_TEST_RUNNER_DIR="+killed.dir, "OSF_TEST_RUNNER_CA="+tm.LB.CAFile)
	out, err := os.Create(filepath.Join(t.TempDir(), "runner.log"))
	must(t, err)
	cmd.Stdout, cmd.Stderr = out, out
	must(t, cmd.Start())
	defer cmd.Process.Kill()
	waitFor(t, "the runner process to be online", func() bool {
		var err error
		run, err = ask("a long one")
		return err == nil
	})
	waitFor(t, "the runner process to report progress", func() bool {
		r := read(run.ID)
		return r.State == "running" && strings.Contains(r.Progress, "working on a long one")
	}, func() string { data, _ := os.ReadFile(out.Name()); return string(data) })
	must(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	t0 := time.Now()
	waitFor(t, "the run to read Interrupted", func() bool { return read(run.ID).State == "interrupted" })
	t.Logf("interrupted %v after the runner process was killed", time.Since(t0))
	if got := read(run.ID); !strings.Contains(got.Problem, "stopped answering") {
		t.Fatalf("the interrupted run: %+v", got)
	}
	time.Sleep(2 * time.Second)
	if got := read(run.ID); got.State != "interrupted" {
		t.Fatalf("an interrupted run was started again: %+v", got)
	}
}

func newRunner(t *testing.T, d *desktop, exec RunExec) *Runner {
	t.Helper()
	db, err := store.Open(filepath.Join(d.dir, "osfoundry.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	r, err := NewRunner(bg, d.Client, db, exec, nil)
	must(t, err)
	r.poll = 200 * time.Millisecond
	return r
}

// TestRunnerProcess is a desktop offering to run work for the team in
// its own process (testTeamRuns starts it and kills it mid-run); its runs
// work until they are stopped.
func TestRunnerProcess(t *testing.T) {
	dir := os.Getenv("OSF_TEST_RUNNER_DIR")
	if dir == "" {
		return // only as testTeamRuns's child
	}
	pem, err := os.ReadFile(os.Getenv("OSF_TEST_RUNNER_CA"))
	must(t, err)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	c := New(Options{Dir: dir, Secrets: TokenFile{Path: filepath.Join(dir, "team-token")}, Device: "alice-killed",
		HTTP: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 30 * time.Second}})
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	must(t, err)
	r, err := NewRunner(bg, c, db, func(ctx context.Context, run TeamRun, progress func(string)) (string, error) {
		progress("working on " + run.Task)
		<-ctx.Done()
		return "", ctx.Err()
	}, nil)
	must(t, err)
	must(t, r.SetEnabled(bg, true))
	r.poll = 200 * time.Millisecond
	fmt.Println("runner process offering work")
	r.Run(bg)
}
