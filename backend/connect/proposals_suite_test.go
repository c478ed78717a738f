package connect_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/proposaltest"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// TestSQLiteProposalSuite runs the proposal store suite against the
// desktop's SQLite table; the team server's PostgreSQL one runs the same
// suite (pgproposals). A replica is a second pool on the same file, as a
// second process has.
func TestSQLiteProposalSuite(t *testing.T) {
	proposaltest.RunSuite(t, func(t *testing.T) proposaltest.Env {
		path := filepath.Join(t.TempDir(), store.FileName)
		db, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svc, err := connect.Open(context.Background(), db, connect.Options{Resources: noResources{}})
		if err != nil {
			t.Fatal(err)
		}
		replica := func(t *testing.T) connect.ProposalRows {
			db, err := store.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return connect.SQLiteProposals(db)
		}
		return proposaltest.Env{Rows: connect.SQLiteProposals(db), Replica: replica, AddConnection: func(t *testing.T, name string) string {
			c, err := svc.CreateConnection(context.Background(), "Claude", name)
			if err != nil {
				t.Fatal(err)
			}
			return c.ID
		}}
	})
}

// noResources serves no tools and no projects: the suite needs only the
// connections and proposals tables.
type noResources struct{}

func (noResources) Tools() []tools.Tool { return nil }
func (noResources) CallTarget(context.Context, string, json.RawMessage) (connect.Target, error) {
	return connect.Target{}, nil
}
func (noResources) ProjectResources(context.Context, string) ([]connect.Resource, error) {
	return nil, nil
}
