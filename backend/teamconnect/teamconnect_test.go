package teamconnect_test

import (
	"context"
	"os"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/pgconnect"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/teamconnect"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// TestMain stops the test binary's PostgreSQL cluster afterwards.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// A connection's standing is its approver's membership, read on every
// call: the role's rank, and the runner role only for a member who may
// write (a viewer with the grant left on starts nothing).
func TestAccessFollowsTheApproversMembership(t *testing.T) {
	ctx := context.Background()
	pool, err := pgdb.Open(ctx, pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := teamauth.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	st, err := pgconnect.Open(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	s := teamconnect.NewStore(st, pool)
	for _, q := range []string{
		`INSERT INTO teamauth_people (id, issuer, subject, created_at, signed_in_at) VALUES ('p1', 'https://op', 's1', now(), now())`,
		`INSERT INTO teamauth_workspaces (id, name, created_at) VALUES ('ws1', 'Team', now())`,
		`INSERT INTO teamauth_members (id, workspace_id, person_id, role, runner, created_at) VALUES ('m1', 'ws1', 'p1', 'editor', false, now())`,
		`INSERT INTO connect_connections (id, display_name, assistant, status, workspace, approver, created_at) VALUES ('c1', 'Claude', 'Claude', 'connected', 'ws1', 'p1', now())`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		change string
		role   int
		runner bool
		gone   bool
	}{
		{"", 2, false, false},
		{`UPDATE teamauth_members SET runner = true`, 2, true, false},
		{`UPDATE teamauth_members SET role = 'viewer'`, 1, false, false},
		{`UPDATE teamauth_members SET role = 'owner'`, 3, true, false},
		{`DELETE FROM teamauth_members`, 0, false, true},
	}
	for _, s0 := range steps {
		if s0.change != "" {
			if _, err := pool.Exec(ctx, s0.change); err != nil {
				t.Fatal(err)
			}
		}
		a, err := s.Access(ctx, connect.AccessQuery{ConnectionID: "c1", Tool: "run_graph_session"})
		if err != nil {
			t.Fatal(err)
		}
		if a.Role != s0.role || a.Runner != s0.runner || a.ApproverGone != s0.gone {
			t.Fatalf("after %q: role %d runner %v gone %v, want %d %v %v", s0.change, a.Role, a.Runner, a.ApproverGone, s0.role, s0.runner, s0.gone)
		}
	}
	if ids, err := s.ConnectionsOf(ctx, "p1"); err != nil || len(ids) != 1 || ids[0] != "c1" {
		t.Fatalf("p1's connections: %v %v", ids, err)
	}
}
