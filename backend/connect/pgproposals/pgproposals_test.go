package pgproposals_test

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/pgproposals"
	"github.com/osfoundry/desktop/backend/connect/proposaltest"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// connectionsSQL stands in for the connect store's PostgreSQL migrations,
// which own connect_connections.
//
//go:embed testdata/connections.sql
var connectionsSQL string

var bg = context.Background()

var connections atomic.Int64

// open returns proposal rows on their own pool (one replica) on url.
func open(t *testing.T, url string) *pgproposals.Rows {
	t.Helper()
	pool, err := pgdb.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	rows, err := pgproposals.Open(bg, pool)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestPostgresProposalSuite runs the desktop's proposal suite against
// PostgreSQL; replicas are separate pools on one database.
func TestPostgresProposalSuite(t *testing.T) {
	proposaltest.RunSuite(t, func(t *testing.T) proposaltest.Env {
		url := pgtest.Database(t)
		pool, err := pgdb.Open(bg, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		if _, err := pool.Exec(bg, connectionsSQL); err != nil {
			t.Fatal(err)
		}
		return proposaltest.Env{
			Rows:    open(t, url),
			Replica: func(t *testing.T) connect.ProposalRows { return open(t, url) },
			AddConnection: func(t *testing.T, name string) string {
				id := fmt.Sprint("conn-", connections.Add(1))
				if _, err := pool.Exec(bg, `INSERT INTO connect_connections (id, display_name) VALUES ($1, $2)`, id, name); err != nil {
					t.Fatal(err)
				}
				return id
			},
		}
	})
}

// Without the connect store's tables the proposals refuse to open, saying
// what to do, rather than failing on the first listing.
func TestOpenNeedsTheConnectStore(t *testing.T) {
	pool, err := pgdb.Open(bg, pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pgproposals.Open(bg, pool); !errors.Is(err, pgproposals.ErrNoConnections) {
		t.Fatalf("Open without connect_connections: %v, want ErrNoConnections", err)
	}
}
