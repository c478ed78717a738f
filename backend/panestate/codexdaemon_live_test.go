//go:build linux

package panestate

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/panewait"
)

// killedApp is what the stand-in app (this test binary) runs.
type killedApp struct {
	Data string
	Dir  string
	Argv []string
	Env  []string
}

const killedAppVar = "OSF_TEST_KILLED_APP"

// Live: the app is killed (SIGKILL) while a pane runs the real codex in
// its default daemon mode, so nothing of the app ends Codex's detached
// daemon and updater. The next start of the app on the same data folder
// ends them; a start on another data folder leaves them alone (they are
// not its panes').
func TestLiveCodexDaemonOfAKilledAppEndsAtTheNextStart(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Codex(t, srv.URL)
	data := t.TempDir()
	spec, _ := json.Marshal(killedApp{Data: data, Dir: e.Work, Argv: e.Argv("-s", "read-only"), Env: e.Env})
	app := exec.Command(os.Args[0], "-test.run=^TestLiveKilledAppStandIn$", "-test.v")
	app.Env = append(os.Environ(), killedAppVar+"="+string(spec))
	out, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	app.Stderr = os.Stderr
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Process.Kill(); app.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "READY") {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the stand-in app ended before its codex pane was ready")
		}
	case <-time.After(2 * liveWait):
		t.Fatal("the stand-in app's codex pane never got ready")
	}
	var daemons []int
	for end := time.Now().Add(liveWait); time.Now().Before(end) && len(daemons) < 2; time.Sleep(50 * time.Millisecond) {
		daemons = daemonsOf(e)
	}
	if len(daemons) < 2 {
		t.Fatalf("Codex started no daemon and updater (%v): the pane did not run Codex as a person does", daemons)
	}
	app.Process.Signal(syscall.SIGKILL)
	app.Wait()
	// The pane's own codex ends with its terminal (the updater may end
	// with it); the daemon stays.
	time.Sleep(time.Second)
	left := daemonsOf(e)
	if !hasManagedDaemon(left) {
		t.Fatalf("the daemon ended with the killed app (%v of %v left): nothing left to test", left, daemons)
	}

	other := newRig(t, Config{DataDir: t.TempDir()})
	other.w.daemons.sweep() // returns after a whole pass
	if now := daemonsOf(e); len(now) < len(left) {
		t.Fatalf("the app on another data folder ended daemons it did not start: %v of %v left", now, left)
	}

	r := newRig(t, Config{DataDir: data})
	r.w.daemons.sweep()
	if left := daemonsOf(e); len(left) > 0 {
		t.Fatalf("Codex daemons of the killed app still running after the next start: %v", left)
	}
}

// TestLiveKilledAppStandIn is the app the test above kills: a codex pane
// on a data folder, READY on stdout once Codex takes input.
func TestLiveKilledAppStandIn(t *testing.T) {
	spec := os.Getenv(killedAppVar)
	if spec == "" {
		t.Skip("run by TestLiveCodexDaemonOfAKilledAppEndsAtTheNextStart")
	}
	var a killedApp
	if err := json.Unmarshal([]byte(spec), &a); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, Config{DataDir: a.Data})
	info, err := r.mgr.Create(terminal.Options{Dir: a.Dir, Argv: a.Argv, Env: a.Env, Cols: 120, Rows: 32})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	panewait.Screen(t, p, regexp.MustCompile(`\? for shortcuts`))
	os.Stdout.WriteString("READY\n")
	select {} // until killed
}

func hasManagedDaemon(pids []int) bool {
	for _, pid := range pids {
		if slices.Contains(procArgv(pid), "--managed-daemon") {
			return true
		}
	}
	return false
}

// daemonsOf lists e's live Codex daemons and updaters: those carrying e's
// marker, and those running from the daemon package in e's CODEX_HOME
// (Codex may restart the updater with a bare environment).
func daemonsOf(e *agentenv.Env) []int {
	seen := map[int]bool{}
	for _, pid := range e.Processes() {
		if isCodexDaemon(procArgv(pid)) {
			seen[pid] = true
		}
	}
	pkg := filepath.Join(e.CodexHome(), "packages", "app-server-daemon") + "/"
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		if exe, err := os.Readlink("/proc/" + ent.Name() + "/exe"); err == nil && strings.HasPrefix(exe, pkg) && isCodexDaemon(procArgv(pid)) {
			if st := procState(pid); st != "" && st != "Z" {
				seen[pid] = true
			}
		}
	}
	var out []int
	for pid := range seen {
		out = append(out, pid)
	}
	return out
}
