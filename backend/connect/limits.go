package connect

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Size limits of what an unauthenticated caller can make the server store.
// Real clients send a 43-character state and challenge and a short loopback
// or https redirect; the limits leave ample room above that.
const (
	maxAuthorizeQuery = 8 << 10
	maxRegisterBody   = 16 << 10
	maxRedirectURIs   = 10
	maxURILen         = 2048
	maxClientName     = 100 // characters
)

var authorizeParamLimits = map[string]int{
	"state": 2048, "redirect_uri": maxURILen, "resource": maxURILen, "scope": 512,
	"client_id": 128, "code_challenge": 128, "code_challenge_method": 16, "response_type": 32, "request": 128,
}

// oversizedParam names the first authorize parameter over its limit, or "".
func oversizedParam(r *http.Request) string {
	if len(r.URL.RawQuery) > maxAuthorizeQuery {
		return "the query"
	}
	q := r.URL.Query()
	for k, limit := range authorizeParamLimits {
		for _, v := range q[k] {
			if len(v) > limit {
				return k
			}
		}
	}
	return ""
}

// Default per-address rates for the unauthenticated endpoints that store
// something: dynamic registration and authorization requests.
const (
	DefaultRegisterPerMinute  = 20
	DefaultAuthorizePerMinute = 60
)

// addrLimiter is a token bucket per client address.
type addrLimiter struct {
	mu    sync.Mutex
	rate  rate.Limit
	burst int
	seen  map[string]*limiterEntry
}

type limiterEntry struct {
	lim  *rate.Limiter
	last time.Time
}

// newAddrLimiter allows perMinute requests a minute per address with a
// burst of as many; perMinute < 0 turns the limit off (benchmarks).
func newAddrLimiter(perMinute, def int) *addrLimiter {
	if perMinute == 0 {
		perMinute = def
	}
	if perMinute < 0 {
		return nil
	}
	return &addrLimiter{rate: rate.Limit(float64(perMinute) / 60), burst: perMinute, seen: map[string]*limiterEntry{}}
}

// allow takes a token for addr or says how long to wait.
func (l *addrLimiter) allow(addr string) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	now := time.Now()
	l.mu.Lock()
	e := l.seen[addr]
	if e == nil {
		e = &limiterEntry{lim: rate.NewLimiter(l.rate, l.burst)}
		l.seen[addr] = e
	}
	e.last = now
	l.mu.Unlock()
	res := e.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// forget drops addresses idle for longer than a full refill.
func (l *addrLimiter) forget(idle time.Duration) {
	if l == nil {
		return
	}
	cut := time.Now().Add(-idle)
	l.mu.Lock()
	defer l.mu.Unlock()
	for a, e := range l.seen {
		if e.last.Before(cut) {
			delete(l.seen, a)
		}
	}
}

func peerAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// clientAddr is whom a request counts against. Behind the TLS proxy a
// public URL implies, every request arrives from loopback; then the
// address the proxy appended last to X-Forwarded-For (or X-Real-IP) is the
// client's. Only a process on this machine could forge it, and such a
// process could reach the server directly anyway.
func (s *Server) clientAddr(r *http.Request) string {
	peer := peerAddr(r)
	if s.public == nil || !isLoopbackHost(peer) {
		return peer
	}
	if xff := strings.Join(r.Header.Values("X-Forwarded-For"), ","); xff != "" {
		parts := strings.Split(xff, ",")
		if ip := net.ParseIP(strings.TrimSpace(parts[len(parts)-1])); ip != nil {
			return ip.String()
		}
	}
	if ip := net.ParseIP(strings.TrimSpace(r.Header.Get("X-Real-IP"))); ip != nil {
		return ip.String()
	}
	return peer
}

// tooMany answers 429 with Retry-After in whole seconds.
func tooMany(w http.ResponseWriter, wait time.Duration, what string) {
	secs := int(wait.Seconds()) + 1
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	publicJSON(w, http.StatusTooManyRequests, &oauthError{"temporarily_unavailable",
		"too many " + what + " from this address; try again in " + strconv.Itoa(secs) + " s"})
}
