package connect

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
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

// Bounds of what registrations may hold all together. A registration that
// never leads to a connection is kept UnusedClientTTL (7 days), so at 20 a
// minute one web page could otherwise fill 2.9 GB; real use is a few a day
// (hosts register again at each sign-in). Past either bound registration
// answers 503 until old ones expire.
const (
	DefaultMaxClients     = 2000
	DefaultMaxClientBytes = 8 << 20
)

// clientCap is the registration bound in force (ServerConfig).
type clientCap struct{ count, bytes int }

// Default per-address rates for the unauthenticated endpoints that store
// something: dynamic registration and authorization requests.
const (
	DefaultRegisterPerMinute  = 20
	DefaultAuthorizePerMinute = 60
)

// addrLimiter is a token bucket per client address, kept in the Store's
// Buckets: in memory on the desktop, in PostgreSQL on the team server, so
// replicas behind one balancer share one budget per address.
type addrLimiter struct {
	purpose   string // the key's prefix: one budget per purpose and address
	perSecond float64
	burst     float64
	buckets   Buckets
	now       func() time.Time
}

// newAddrLimiter allows perMinute requests a minute per address with a
// burst of as many; perMinute < 0 turns the limit off (benchmarks).
func newAddrLimiter(buckets Buckets, purpose string, perMinute, def int) *addrLimiter {
	if perMinute == 0 {
		perMinute = def
	}
	if perMinute < 0 {
		return nil
	}
	return &addrLimiter{purpose: purpose, perSecond: float64(perMinute) / 60, burst: float64(perMinute), buckets: buckets, now: time.Now}
}

// limitKey is the address a request counts against. Every loopback
// address is one: a page or process on this machine can send from any of
// 127.0.0.0/8 (and ::1, ::ffff:127.x), and counted apart they would give
// it sixteen million budgets. Other IPv4-mapped addresses count as their
// IPv4 form.
func limitKey(addr string) string {
	ip := net.ParseIP(strings.Trim(addr, "[]"))
	switch {
	case ip == nil:
		return addr
	case ip.IsLoopback():
		return "loopback"
	}
	return ip.String()
}

// allow takes a token for addr or says how long to wait.
func (l *addrLimiter) allow(ctx context.Context, addr string) (bool, time.Duration, error) {
	if l == nil {
		return true, 0, nil
	}
	now := l.now()
	var ok bool
	var wait time.Duration
	err := l.buckets.TakeBucket(ctx, l.purpose+" "+limitKey(addr), func(b Bucket) Bucket {
		b, ok, wait = takeToken(b, now, l.perSecond, l.burst)
		return b
	})
	if err != nil {
		return false, 0, fmt.Errorf("counting %s from %s: %w", l.purpose, limitKey(addr), err)
	}
	return ok, wait, nil
}

// takeToken is the bucket rule: a new bucket starts full, it refills at
// perSecond up to burst, and a request takes one token or, finding less,
// takes nothing and is told when one will be there.
func takeToken(b Bucket, now time.Time, perSecond, burst float64) (Bucket, bool, time.Duration) {
	tokens := burst
	if !b.At.IsZero() {
		tokens = b.Tokens
		if d := now.Sub(b.At); d > 0 {
			tokens = min(burst, tokens+d.Seconds()*perSecond)
		}
	}
	if !now.After(b.At) {
		now = b.At // a clock behind another replica's refills nothing
	}
	if tokens >= 1 {
		return Bucket{Tokens: tokens - 1, At: now}, true, 0
	}
	wait := time.Duration((1 - tokens) / perSecond * float64(time.Second))
	return Bucket{Tokens: tokens, At: now}, false, max(wait, time.Millisecond)
}

// bucketIdle is how long an address's bucket is kept unused: longer than
// a full refill, after which a new one reads the same.
const bucketIdle = 10 * time.Minute

func peerAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// clientAddr is whom a request counts against. Behind the TLS proxy a
// public URL implies, requests arrive from the proxy: from loopback when
// it runs on this machine, or from a balancer listed in TrustedProxies.
// Then the client is the last address in X-Forwarded-For that is not one
// of those proxies (or X-Real-IP). Only a trusted proxy can set it: from
// any other peer the header is ignored.
func (s *Server) clientAddr(r *http.Request) string {
	peer := peerAddr(r)
	if !s.trustedProxy(peer) {
		return peer
	}
	if xff := strings.Join(r.Header.Values("X-Forwarded-For"), ","); xff != "" {
		parts := strings.Split(xff, ",")
		for i := len(parts) - 1; i >= 0; i-- {
			ip := net.ParseIP(strings.TrimSpace(parts[i]))
			if ip == nil {
				break // a proxy would not write this: stop believing the header
			}
			if i == 0 || !s.trustedProxy(ip.String()) {
				return ip.String()
			}
		}
	}
	if ip := net.ParseIP(strings.TrimSpace(r.Header.Get("X-Real-IP"))); ip != nil {
		return ip.String()
	}
	return peer
}

// trustedProxy says whether addr is a proxy whose forwarded address is
// believed: only with a public URL, loopback or a TrustedProxies entry.
func (s *Server) trustedProxy(addr string) bool {
	if s.public == nil {
		return false
	}
	if isLoopbackHost(addr) {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(addr, "[]"))
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, p := range s.proxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// parseProxies reads TrustedProxies: addresses or CIDR prefixes.
func parseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range list {
		v = strings.TrimSpace(v)
		if p, err := netip.ParsePrefix(v); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(v)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an address nor a CIDR prefix like 10.0.0.0/8", v)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// tooMany answers 429 with Retry-After in whole seconds.
func tooMany(w http.ResponseWriter, wait time.Duration, what string) {
	secs := int(wait.Seconds()) + 1
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	publicJSON(w, http.StatusTooManyRequests, &oauthError{"temporarily_unavailable",
		"too many " + what + " from this address; try again in " + strconv.Itoa(secs) + " s"})
}
