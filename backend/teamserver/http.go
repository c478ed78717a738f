package teamserver

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// probes are answered many times a minute by every balancer: they are
// counted, but logged only through the database watcher's state changes.
var probes = map[string]bool{"GET /healthz": true, "GET /readyz": true, "GET /metrics": true}

// instrument counts, times and logs every request, one JSON line each.
// A line names the route pattern, never the raw path or query (either may
// carry a code, a token or a sign-in link), and no header but the
// request ID and user agent.
func (s *Server) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		s.metrics.inFlight.Add(1)
		defer s.metrics.inFlight.Add(-1)
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		rec := &recorder{ResponseWriter: w, code: http.StatusOK}
		next.ServeHTTP(rec, r)
		// ServeMux set the matched pattern on r.
		route := r.Pattern
		if route == "" {
			route = "unmatched"
		}
		method := methodLabel(r.Method)
		took := time.Since(start)
		s.metrics.requests.WithLabelValues(route, method, strconv.Itoa(rec.code)).Inc()
		s.metrics.latency.WithLabelValues(route, method).Observe(took.Seconds())
		if probes[route] {
			return
		}
		level := slog.LevelInfo
		if rec.code >= 500 {
			level = slog.LevelError
		}
		s.log.LogAttrs(r.Context(), level, "request",
			slog.String("method", method),
			slog.String("route", route),
			slog.Int("status", rec.code),
			slog.Int64("bytes", rec.bytes),
			slog.Float64("duration_ms", float64(took.Microseconds())/1000),
			slog.String("remote", r.RemoteAddr),
			slog.String("forwarded_for", r.Header.Get("X-Forwarded-For")),
			slog.String("request_id", id),
			slog.String("user_agent", truncate(r.UserAgent(), 200)),
		)
	})
}

// methodLabel keeps the methods label to a known few.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return "OTHER"
}

func newRequestID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// recorder remembers the status and size of a response. Unwrap lets
// http.ResponseController reach the connection's Flush and deadlines, so
// streaming handlers work through it.
type recorder struct {
	http.ResponseWriter
	code        int
	bytes       int64
	wroteHeader bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wroteHeader {
		r.code, r.wroteHeader = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wroteHeader = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Flush serves handlers that assert http.Flusher directly.
func (r *recorder) Flush() {
	r.wroteHeader = true
	http.NewResponseController(r.ResponseWriter).Flush()
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
