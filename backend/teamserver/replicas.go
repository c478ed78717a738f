package teamserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"time"
)

const (
	heartbeatEvery = 10 * time.Second
	// replicaLive is how recently a replica must have said it is alive to
	// count in osfoundry_team_replicas.
	replicaLive = 30 * time.Second
)

// replicaID is the host name and a random suffix: two replicas on one
// host, or one restarted, never share an ID.
func replicaID() string {
	host, _ := os.Hostname()
	if host == "" {
		host = "replica"
	}
	b := make([]byte, 4)
	rand.Read(b)
	return host + "-" + hex.EncodeToString(b)
}

// heartbeat keeps this replica's row in server_replicas fresh until ctx
// ends, then removes it. A failed beat (the database is away) is retried
// at the next tick; the database watcher already logs the outage.
func (s *Server) heartbeat(ctx context.Context, listen string) {
	host, _ := os.Hostname()
	beat := func() {
		bctx, cancel := context.WithTimeout(ctx, pingTimeout)
		defer cancel()
		_, err := s.pool.Exec(bctx, `INSERT INTO server_replicas (id, host, listen, version) VALUES ($1, $2, $3, $4)
			ON CONFLICT (id) DO UPDATE SET seen_at = now()`, s.id, host, listen, s.version)
		if err != nil {
			return
		}
		_, _ = s.pool.Exec(bctx, `DELETE FROM server_replicas WHERE seen_at < now() - interval '10 minutes'`)
		var live int
		if s.pool.QueryRow(bctx, `SELECT count(*) FROM server_replicas WHERE seen_at > now() - make_interval(secs => $1)`,
			replicaLive.Seconds()).Scan(&live) == nil {
			s.metrics.replicas.Set(float64(live))
		}
	}
	beat()
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			beat()
		case <-ctx.Done():
			dctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
			defer cancel()
			if _, err := s.pool.Exec(dctx, `DELETE FROM server_replicas WHERE id = $1`, s.id); err != nil {
				s.log.Warn("could not remove this replica from server_replicas; it expires by itself", "error", err.Error())
			}
			return
		}
	}
}
