package teamserver_test

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"syscall"
	"testing"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// Two replicas on one database behind haproxy with TLS: requests from one
// client alternate between them, each replica logs the requests it
// answered, and stopping one replica (SIGTERM) while requests keep coming
// loses none of them.
func TestTwoReplicasBehindTLSBalancer(t *testing.T) {
	url := pgtest.Database(t)
	lb := teamtest.NewBalancer(t)
	env := append(teamtest.Env(url)[:1:1], "OSF_PUBLIC_URL="+lb.URL, "OSF_LISTEN=127.0.0.1:0")
	a, b := teamtest.Start(t, env), teamtest.Start(t, env)
	lb.Start(t, a.Addr, b.Addr)

	served := map[string]*teamtest.Replica{}
	var prev string
	for i := range 10 {
		id := fmt.Sprintf("alt-%d", i)
		code, server := lbGet(t, lb, "/no/such/page", id)
		if code != 404 {
			t.Fatalf("request %d through the balancer: %d", i, code)
		}
		if server == prev {
			t.Errorf("requests %d and %d both went to %s; want them to alternate", i-1, i, server)
		}
		prev = server
		if served[server] == nil {
			served[server] = map[string]*teamtest.Replica{"r1": a, "r2": b}[server]
		}
		if _, err := served[server].WaitLog(wait, func(l teamtest.Line) bool { return l["request_id"] == id }); err != nil {
			t.Errorf("request %s is not in %s's log: %v", id, server, err)
		}
	}
	if len(served) != 2 {
		t.Fatalf("requests reached %d replicas, want 2", len(served))
	}

	// Stop one replica under a stream of requests: the balancer retries
	// on the other one and no request fails.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var mu sync.Mutex
	failed, total := 0, 0
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := lb.Client.Get(lb.URL + "/healthz")
				ok := err == nil && resp.StatusCode == 200
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				mu.Lock()
				total++
				if !ok {
					failed++
					t.Logf("worker %d request %d: %v %v", w, n, err, status(resp))
				}
				mu.Unlock()
			}
		}()
	}
	waitFor(t, "requests to flow", func() bool { mu.Lock(); defer mu.Unlock(); return total > 20 })
	a.Signal(syscall.SIGTERM)
	if code, err := a.Wait(wait); err != nil || code != 0 {
		t.Fatalf("replica r1: exit %d, %v", code, err)
	}
	waitFor(t, "haproxy to see r1 down", func() bool {
		up, err := lb.Up()
		return err == nil && len(up) == 1 && up[0] == "r2"
	})
	mark := func() int { mu.Lock(); defer mu.Unlock(); return total }
	after := mark()
	waitFor(t, "more requests on r2 alone", func() bool { return mark() > after+20 })
	close(stop)
	wg.Wait()
	if failed > 0 {
		t.Errorf("%d of %d requests failed while a replica stopped", failed, total)
	}
}

func lbGet(t *testing.T, lb *teamtest.Balancer, path, id string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", lb.URL+path, nil)
	req.Header.Set("X-Request-Id", id)
	resp, err := lb.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get("X-Balancer-Server")
}

func status(resp *http.Response) string {
	if resp == nil {
		return ""
	}
	return resp.Status
}
