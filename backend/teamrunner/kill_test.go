// The runner desktop is a process group of its own, SIGKILLed with its
// Claude Code: Unix process groups.

//go:build unix

package teamrunner

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// A runner desktop killed mid-run: alice's desktop runs in its own
// process (TestRunnerDesktopProcess: the real teamclient runner, run
// engine and Claude Code), claims an assistant's run and is SIGKILLed
// while Claude Code waits on the model. The run reads Interrupted for the
// assistant once the lease lapses, and is never started again: a second
// runner desktop that comes online afterwards takes the next run and
// never that one, and the model never sees its task a second time.
func TestLiveTeamRunRunnerKilledMidRun(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	srv := fakemodel.Start(t, fakemodel.Turn{Text: "never sent", Hold: hold})
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)

	// The killed desktop joins here; its process opens the same folder.
	dir := t.TempDir()
	c := teamclient.New(teamclient.Options{Dir: dir, HTTP: &http.Client{Transport: tm.LB.Client.Transport, Timeout: 30 * time.Second},
		Open: tm.ApproveDesktop(tm.Owner, "alice", "allow"), Device: "alice-killed",
		Secrets: teamclient.TokenFile{Path: filepath.Join(dir, "team-token")}, JoinTimeout: time.Minute})
	if st, err := c.Join(bg, tm.LB.URL); err != nil || st.State != teamclient.Connected {
		t.Fatalf("joining: %+v %v", st, err)
	}
	var project struct {
		ID string `json:"id"`
	}
	must(t, tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/projects", map[string]string{"name": "Incidents"}, &project))
	must(t, openRunnerDesktop(t, c, dir, nil).replica.JoinProject(bg, tm.Workspace, project.ID))
	if _, err := tm.Pool().Exec(bg, `UPDATE teamauth_members SET runner = true WHERE workspace_id = $1
		AND person_id = (SELECT id FROM teamauth_people WHERE email = $2)`, tm.Workspace, teamtest.People["alice"].Email); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestRunnerDesktopProcess$", "-test.v")
	cmd.Env = append(os.Environ(), "OSF_TEAMRUNNER_DIR="+dir, "OSF_TEAMRUNNER_CA="+tm.LB.CAFile, "OSF_TEAMRUNNER_MODEL="+srv.URL)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its Claude Code dies with it
	logf, err := os.Create(filepath.Join(t.TempDir(), "runner.log"))
	must(t, err)
	cmd.Stdout, cmd.Stderr = logf, logf
	must(t, cmd.Start())
	killed := false
	kill := func() {
		if !killed {
			killed = true
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
	}
	defer kill()
	processLog := func() string { data, _ := os.ReadFile(logf.Name()); return string(data) }

	as := connectAssistant(t, tm, project.ID)
	const task = "Summarise last night's incident."
	run := as.start(t, task, 0)
	until(t, "Claude Code in the runner process to ask the model", func() bool { return sawTask(srv, task) == 1 }, processLog)
	until(t, "the runner process to report the run going", func() bool {
		got := as.read(t, run.ID, 0)
		return got.State == "running" && got.Progress == "running on this desktop"
	}, processLog)
	kill()
	t0 := time.Now()
	var got teamclient.TeamRun
	until(t, "the run to read Interrupted", func() bool { got = as.read(t, run.ID, 5); return got.State == "interrupted" }, processLog)
	t.Logf("interrupted %v after the runner process was killed", time.Since(t0))
	if !strings.Contains(got.Problem, "stopped answering") || got.Answer != "" {
		t.Fatalf("the interrupted run: %+v", got)
	}

	// Another runner desktop comes online: it takes the next run, never
	// the interrupted one.
	srv.Push(fakemodel.Text("The second answer."))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	second := newRunnerDesktop(t, tm, e, "alice-second")
	must(t, second.replica.JoinProject(bg, tm.Workspace, project.ID))
	ctx, stop := context.WithCancel(bg)
	defer stop()
	go second.runner.Run(ctx)
	next := as.start(t, "A second question.", 110)
	for next.State == "queued" || next.State == "running" {
		next = as.read(t, next.ID, 110)
	}
	if next.State != "done" || !strings.Contains(next.Answer, "The second answer.") {
		t.Fatalf("the next run on the second desktop: %+v", next)
	}
	time.Sleep(2 * time.Second) // a few more offers of the second desktop
	if got := as.read(t, run.ID, 0); got.State != "interrupted" {
		t.Fatalf("the interrupted run was started again: %+v", got)
	}
	if n := sawTask(srv, task); n != 1 {
		t.Fatalf("the model saw the interrupted run's task %d times", n)
	}
}

// sawTask counts the model's main requests whose first user turn is the
// run's task (a Claude Code run's later requests repeat it).
func sawTask(srv *fakemodel.Server, task string) int {
	n := 0
	for _, r := range srv.MainRequests() {
		if strings.Contains(string(r.Body), task) && !strings.Contains(string(r.Body), `"role":"assistant"`) {
			n++
		}
	}
	return n
}

func until(t *testing.T, what string, ok func() bool, state func() string) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s\n%s", what, state())
		}
	}
}

// TestRunnerDesktopProcess is a runner desktop in its own process, as
// TestLiveTeamRunRunnerKilledMidRun starts it: the joined folder it is
// given, the real teamclient runner, run engine and Claude Code against
// the given model, "Run work for the team" on, until it is killed.
func TestRunnerDesktopProcess(t *testing.T) {
	dir := os.Getenv("OSF_TEAMRUNNER_DIR")
	if dir == "" {
		return // only as the kill test's child
	}
	pem, err := os.ReadFile(os.Getenv("OSF_TEAMRUNNER_CA"))
	must(t, err)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	c := teamclient.New(teamclient.Options{Dir: dir, Secrets: teamclient.TokenFile{Path: filepath.Join(dir, "team-token")}, Device: "alice-killed",
		HTTP: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 30 * time.Second}})
	e := agentenv.Claude(t, os.Getenv("OSF_TEAMRUNNER_MODEL"), "IS_SANDBOX=1")
	d := openRunnerDesktop(t, c, dir, e)
	fmt.Println("runner desktop offering work")
	d.runner.Run(bg)
}
