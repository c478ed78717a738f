package connect_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/storetest"
	"github.com/osfoundry/desktop/backend/store"
)

// TestSQLiteStoreSuite runs the connect store suite against the desktop's
// SQLite file; the team server's PostgreSQL store runs the same suite
// (pgconnect). A replica is a second pool on the same file, as a second
// process has.
func TestSQLiteStoreSuite(t *testing.T) {
	storetest.RunSuite(t, func(t *testing.T) storetest.Env {
		path := filepath.Join(t.TempDir(), store.FileName)
		open := func(t *testing.T) connect.Store {
			db, err := store.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			st, err := connect.OpenSQLite(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		st := open(t)
		if _, err := connect.New(context.Background(), st, connect.Options{Resources: noResources{}, Proposals: noProposals{}}); err != nil {
			t.Fatal(err)
		}
		return storetest.Env{Store: st, Replica: open}
	})
}

// noProposals keeps none: the store suite needs only the owner New adds.
type noProposals struct{ connect.ProposalRows }
