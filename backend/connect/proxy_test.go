package connect

import (
	"net/http"
	"strings"
	"testing"
)

// Behind a TLS proxy on this machine every request comes from loopback:
// the per-address limits then go by the address the proxy forwards, so
// one client cannot use up another's.
func TestRateLimitsFollowTheForwardedAddressBehindAProxy(t *testing.T) {
	e := newEnvWith(t, ServerConfig{PublicURL: "https://team.example.com"})
	register := func(from string) int {
		req, _ := http.NewRequest(http.MethodPost, "http://"+e.srv.Addr()+registerPath,
			strings.NewReader(`{"client_name":"x","redirect_uris":["http://127.0.0.1:9/cb"]}`))
		req.Host = "team.example.com"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", "198.51.100.7, "+from)
		resp, err := http.DefaultClient.Do(req)
		must(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	limited := false
	for i := 0; i < DefaultRegisterPerMinute+5; i++ {
		limited = limited || register("203.0.113.1") == http.StatusTooManyRequests
	}
	if !limited {
		t.Fatal("one forwarded address was never limited")
	}
	if st := register("203.0.113.2"); st != http.StatusCreated {
		t.Fatalf("another forwarded address: %d, want 201", st)
	}
}
