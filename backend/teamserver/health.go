package teamserver

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// pingTimeout bounds one readiness check: a balancer's probe must get an
// answer even while PostgreSQL does not.
const pingTimeout = 2 * time.Second

// healthz says the process runs and serves HTTP; it never looks at the
// database, so a balancer or systemd does not restart every replica
// because PostgreSQL is away.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte("ok\n"))
}

// readyz says this replica can serve requests now: not draining, and the
// database answers. It is 503 otherwise, and turns 200 again by itself
// once PostgreSQL is back.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	select {
	case <-s.draining:
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("draining: this replica is shutting down\n"))
		return
	default:
	}
	if !s.checkDatabase(r.Context()) {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("the database does not answer\n"))
		return
	}
	for _, c := range s.ready {
		ctx, cancel := context.WithTimeout(r.Context(), pingTimeout)
		err := c.Ready(ctx)
		cancel()
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, "%s is not ready: %v\n", c.Name, err)
			return
		}
	}
	w.Write([]byte("ready\n"))
}

// checkDatabase pings PostgreSQL, logs when it goes away or comes back,
// and reports whether it answers.
func (s *Server) checkDatabase(ctx context.Context) bool {
	err := s.ping(ctx)
	if err != nil {
		// A pooled connection from before a PostgreSQL restart fails once
		// and is dropped; a second ping takes a new one.
		err = s.ping(ctx)
	}
	up := err == nil
	if was := s.dbUp.Swap(up); was != up {
		if up {
			s.log.Info("the database answers again")
		} else {
			s.log.Warn("the database does not answer; /readyz is 503 until it does", "error", err.Error())
		}
	}
	return up
}

func (s *Server) ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	return s.pool.Ping(ctx)
}

// watchDatabase checks the database every few seconds, so its state is in
// the logs and metrics even when nobody probes /readyz.
func (s *Server) watchDatabase(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.checkDatabase(ctx)
		}
	}
}
