package teamserver_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// SIGTERM with a request in flight: the listener closes (a new connection
// is refused), the request still finishes with its whole answer, and the
// process exits 0.
func TestSIGTERMFinishesInFlightAndRefusesNew(t *testing.T) {
	r := teamtest.Start(t, teamtest.Env(pgtest.Database(t)))
	release := filepath.Join(t.TempDir(), "release")
	resp, err := http.Get(r.URL + "/test/slow?until=" + release)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body := bufio.NewReader(resp.Body)
	if first, err := body.ReadString('\n'); err != nil || first != "started\n" {
		t.Fatalf("slow request: %q, %v", first, err)
	}

	if err := r.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if _, err := r.WaitLog(wait, func(l teamtest.Line) bool { return l["msg"] == "draining" }); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a new connection to be refused", func() bool {
		c, err := net.Dial("tcp", r.Addr)
		if err != nil {
			return true
		}
		c.Close()
		return false
	})
	if r.Exited() {
		t.Fatal("the process exited with a request in flight")
	}

	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(body)
	if err != nil || string(rest) != "finished\n" {
		t.Fatalf("the in-flight request's end: %q, %v", rest, err)
	}
	if code, err := r.Wait(wait); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, r.Stderr())
	}
	if _, err := r.WaitLog(wait, func(l teamtest.Line) bool {
		return l["msg"] == "request" && l["route"] == "GET /test/slow" && l["status"] == float64(200)
	}); err != nil {
		t.Errorf("the drained request is not logged: %v\n%s", err, r.Stdout())
	}
}

// With a drain delay, SIGTERM turns /readyz to 503 at once while the
// replica still answers, so a balancer that polls it stops sending; a
// second signal ends the process without waiting.
func TestSIGTERMTurnsReadyzTo503AtOnce(t *testing.T) {
	r := teamtest.Start(t, append(teamtest.Env(pgtest.Database(t)), "OSF_DRAIN_DELAY=1h"))
	if code, _ := get(t, r.URL+"/readyz"); code != 200 {
		t.Fatalf("/readyz before SIGTERM: %d", code)
	}
	if err := r.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "/readyz to answer 503", func() bool {
		code, body := get(t, r.URL+"/readyz")
		return code == 503 && strings.HasPrefix(body, "draining")
	})
	if code, _ := get(t, r.URL+"/healthz"); code != 200 {
		t.Errorf("/healthz while draining: %d, want 200 (the process is alive)", code)
	}
	if _, m := get(t, r.URL+"/metrics"); !strings.Contains(m, "osfoundry_team_draining 1") {
		t.Error("/metrics does not show the drain")
	}
	if err := r.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, err := r.Wait(wait); err != nil || code == 0 {
		t.Fatalf("after a second SIGTERM: exit %d, %v; want the process ended by the signal", code, err)
	}
}

// PostgreSQL stopped while requests keep coming: /readyz turns 503,
// /healthz stays 200, and /readyz turns 200 again by itself once
// PostgreSQL is back, with both changes in the log.
func TestReadyzFollowsPostgreSQLUnderLoad(t *testing.T) {
	pg, err := pgtest.Start() // a cluster of its own: stopping it must not touch other tests
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Remove)
	r := teamtest.Start(t, teamtest.Env(pg.Database(t)))

	var healthFailed, ready, notReady atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	client := &http.Client{}
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, p := range []string{"/healthz", "/readyz", "/metrics"} {
				resp, err := client.Get(r.URL + p)
				if err != nil {
					healthFailed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				switch {
				case p == "/healthz" && resp.StatusCode != 200:
					healthFailed.Add(1)
				case p == "/readyz" && resp.StatusCode == 200:
					ready.Add(1)
				case p == "/readyz" && resp.StatusCode == 503:
					notReady.Add(1)
				}
			}
		}
	}()
	waitFor(t, "the load to see the replica ready", func() bool { return ready.Load() > 0 })

	if err := pg.Stop(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the load to see /readyz 503", func() bool { return notReady.Load() > 0 })
	if _, m := get(t, r.URL+"/metrics"); !strings.Contains(m, "osfoundry_database_up 0") {
		t.Error("/metrics does not show the database down")
	}
	if err := pg.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "/readyz to answer 200 again by itself", func() bool {
		code, _ := get(t, r.URL+"/readyz")
		return code == 200
	})
	close(stop)
	<-done
	if n := healthFailed.Load(); n > 0 {
		t.Errorf("/healthz failed %d times while PostgreSQL was away; it must not look at the database", n)
	}
	for _, msg := range []string{"the database does not answer; /readyz is 503 until it does", "the database answers again"} {
		if _, err := r.WaitLog(wait, func(l teamtest.Line) bool { return l["msg"] == msg }); err != nil {
			t.Errorf("log line %q: %v", msg, err)
		}
	}
	r.Signal(syscall.SIGTERM)
	if code, err := r.Wait(wait); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
}

// A component's own readiness check holds /readyz at 503, with its
// reason, until it passes again.
func TestReadyzAsksTheComponents(t *testing.T) {
	unready := filepath.Join(t.TempDir(), "unready")
	r := teamtest.Start(t, append(teamtest.Env(pgtest.Database(t)), "OSF_TEST_UNREADY="+unready))
	if code, body := get(t, r.URL+"/readyz"); code != 200 {
		t.Fatalf("/readyz: %d %q", code, body)
	}
	if err := os.WriteFile(unready, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, r.URL+"/readyz"); code != 503 || body != "testroutes is not ready: the test asked for it\n" {
		t.Errorf("/readyz with a component unready: %d %q", code, body)
	}
	if code, _ := get(t, r.URL+"/healthz"); code != 200 {
		t.Errorf("/healthz: %d", code)
	}
	os.Remove(unready)
	if code, body := get(t, r.URL+"/readyz"); code != 200 {
		t.Errorf("/readyz once the component is ready again: %d %q", code, body)
	}
}
