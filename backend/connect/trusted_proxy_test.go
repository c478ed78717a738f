package connect

import (
	"net/http"
	"testing"
)

// Behind a balancer on another machine (TrustedProxies), the rate limits
// count the client the balancer forwards, skipping proxies it trusts;
// from any other peer, or without a public URL, the header is ignored.
func TestClientAddrBehindTrustedProxies(t *testing.T) {
	svc := newEnv(t).svc
	proxies := []string{"10.0.0.0/8", "192.0.2.10", "::ffff:198.51.100.1"}
	team, err := NewServer(svc, ServerConfig{PublicURL: "https://team.example.com", TrustedProxies: proxies})
	must(t, err)
	loopOnly, err := NewServer(svc, ServerConfig{TrustedProxies: proxies})
	must(t, err)
	for _, c := range []struct {
		name      string
		s         *Server
		peer, xff string
		realIP    string
		want      string
	}{
		{"balancer in a trusted range", team, "10.1.2.3:5000", "203.0.113.5", "", "203.0.113.5"},
		{"a forged entry before the balancer's", team, "10.1.2.3:5000", "198.18.0.1, 203.0.113.5", "", "203.0.113.5"},
		{"two trusted hops", team, "10.1.2.3:5000", "203.0.113.5, 192.0.2.10", "", "203.0.113.5"},
		{"a mapped IPv4 balancer", team, "[::ffff:198.51.100.1]:5000", "203.0.113.6", "", "203.0.113.6"},
		{"X-Real-IP without X-Forwarded-For", team, "10.1.2.3:5000", "", "203.0.113.7", "203.0.113.7"},
		{"an untrusted peer's header", team, "198.18.0.9:5000", "203.0.113.5", "", "198.18.0.9"},
		{"garbage in the header", team, "10.1.2.3:5000", "203.0.113.5, not-an-ip", "", "10.1.2.3"},
		{"no public URL", loopOnly, "10.1.2.3:5000", "203.0.113.5", "", "10.1.2.3"},
	} {
		r := &http.Request{RemoteAddr: c.peer, Header: http.Header{}}
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if c.realIP != "" {
			r.Header.Set("X-Real-IP", c.realIP)
		}
		if got := c.s.clientAddr(r); got != c.want {
			t.Errorf("%s: counted as %s, want %s", c.name, got, c.want)
		}
	}
	if _, err := NewServer(svc, ServerConfig{PublicURL: "https://team.example.com", TrustedProxies: []string{"balancer"}}); err == nil {
		t.Error("a trusted proxy that is no address was accepted")
	}
}
