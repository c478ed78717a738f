package pgconnect_test

import (
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/pgconnect"
	"github.com/osfoundry/desktop/backend/connect/storetest"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// TestPostgresStoreSuite runs the connect store suite against PostgreSQL;
// a replica is a second pool on the same database.
func TestPostgresStoreSuite(t *testing.T) {
	storetest.RunSuite(t, func(t *testing.T) storetest.Env {
		url := pgtest.Database(t)
		open := func(t *testing.T) connect.Store {
			pool, err := pgdb.Open(bg, url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			st, err := pgconnect.Open(bg, pool)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		st := open(t)
		if _, err := connect.New(bg, st, connect.Options{Resources: workspaceRes{}, Proposals: noProposals{}}); err != nil {
			t.Fatal(err)
		}
		return storetest.Env{Store: st, Replica: open}
	})
}

// noProposals keeps none: the store suite needs only the owner New adds.
type noProposals struct{ connect.ProposalRows }
