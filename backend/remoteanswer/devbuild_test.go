//go:build linux

package remoteanswer

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// The journey with the desktop's dev build (the app itself, under Xvfb):
// signed in to a real team server, it shares a pane running the real
// Claude Code against the fake model; the permission prompt reaches the
// Needs you page on a phone (Chromium), Approve there is typed in the
// app's pane and Claude Code runs the command
// (frontend/e2e/teampage/needs-you-app.mjs drives the app and the phone).
func TestDevBuildAnsweredFromThePage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the app")
	}
	for _, bin := range []string{"xvfb-run", "node", "npx"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is not installed: make deps-test installs what this test needs", bin)
		}
	}
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	// The screens as they are now, built for this test (a clean clone has
	// no frontend/dist when the unit tests run).
	dist := t.TempDir()
	vite := exec.Command("npx", "vite", "build", "--outDir", dist, "--emptyOutDir")
	vite.Dir = filepath.Join(repo, "frontend")
	if out, err := vite.CombinedOutput(); err != nil {
		t.Fatalf("building the frontend: %v\n%s", err, out)
	}
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL)
	app := filepath.Join(t.TempDir(), "osfoundry-dev")
	build := exec.Command("go", "build", "-tags", "dev,webkit2_41", "-o", app, ".")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the dev app: %v\n%s", err, out)
	}
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)

	// The app's data folder, signed in to the team as alice's desktop
	// (the app reads team.json and its token file from there).
	data := t.TempDir()
	c := teamclient.New(teamclient.Options{Dir: data, HTTP: tm.LB.Client, Open: tm.ApproveDesktop(tm.Owner, "alice", "allow"),
		Device: "alice-dev-build", Secrets: teamclient.TokenFile{Path: filepath.Join(data, "team-token")}, JoinTimeout: time.Minute})
	if st, err := c.Join(bg, tm.LB.URL); err != nil || st.State != teamclient.Connected {
		t.Fatalf("joining: %+v %v", st, err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command("xvfb-run", "-a", "-s", "-screen 0 1280x820x24", app, "-devserver", addr, "-assetdir", dist)
	cmd.Env = append(append(os.Environ(), e.Env...), "OSFOUNDRY_HOME="+data, "SSL_CERT_FILE="+tm.LB.CAFile,
		"WEBKIT_DISABLE_DMABUF_RENDERER=1", "OSF_FROM_TERMINAL=1", "DBUS_SESSION_BUS_ADDRESS=disabled:")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var appLog bytes.Buffer
	cmd.Stderr = &appLog
	must(t, cmd.Start())
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the app never served its page:\n%s", appLog.String())
		}
		time.Sleep(200 * time.Millisecond)
	}

	srv.Push(fakemodel.ClaudeBash("touch osf-bash.txt && echo osf-marker-$((6*7))", "Create a marker file"), fakemodel.Text("All done."))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ran", func(w http.ResponseWriter, r *http.Request) {
		ok := srv.WaitMain(2, 45*time.Second)
		res := srv.MainRequests()
		ok = ok && len(res) >= 2 && slices.ContainsFunc(res[1].ToolResults(), func(r fakemodel.ToolResult) bool { return strings.Contains(r.Text, "osf-marker-42") })
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": ok, "t": time.Now().UnixMilli()})
	})
	control := httptest.NewServer(mux)
	defer control.Close()
	runNode(t, "needs-you-app.mjs", tm, "APP=http://"+addr, "CLAUDE="+e.Bin, "WORK="+e.Work, "CONTROL="+control.URL)

	// The app's own audit has the answer, with the phone it came from.
	db, err := store.Open(filepath.Join(data, store.FileName))
	must(t, err)
	defer db.Close()
	var source, decision, args string
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		err = db.QueryRow(`SELECT source, decision, args FROM tool_audit WHERE tool = 'runtime_answer' AND channel = ?`, Channel).Scan(&source, &decision, &args)
		if err == nil || time.Now().After(end) {
			break
		}
	}
	if err != nil || !strings.Contains(source, "osf-e2e-app") || decision != "ran" || !strings.Contains(args, `"answer":"1"`) {
		t.Fatalf("the app's audit of the answer: %q %q %q %v", source, decision, args, err)
	}
}
