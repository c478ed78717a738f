package teamsync

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/messages/pgmessages"
	"github.com/osfoundry/desktop/backend/notes/pgnotes"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

var bg = context.Background()

// TestMain stops the test binary's PostgreSQL cluster afterwards.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func openDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool, err := pgdb.Open(bg, pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := pgdb.Migrate(bg, pool, pgnotes.Component, pgnotes.Migrations()); err != nil {
		t.Fatal(err)
	}
	// teamsync numbers discussion posts too: the message tables come first.
	if err := pgdb.Migrate(bg, pool, pgmessages.Component, pgmessages.Migrations()); err != nil {
		t.Fatal(err)
	}
	if err := pgdb.Migrate(bg, pool, Component, Migrations()); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO workspaces VALUES ('ws1', 'Team', '2026-01-01')`,
		`INSERT INTO projects VALUES ('proj-1', 'ws1', 'P', '2026-01-01')`,
		`INSERT INTO notes VALUES ('note-a', 'ws1', 'proj-1', 'A', 1, '2026-01-01', '2026-01-01')`,
		`INSERT INTO notes VALUES ('note-b', 'ws1', 'proj-1', 'B', 1, '2026-01-01', '2026-01-01')`,
	} {
		if _, err := pool.Exec(bg, q); err != nil {
			t.Fatal(err)
		}
	}
	return pool
}

// drain reads every change after c, as a desktop pulls.
func drain(t *testing.T, s *Service, c cursor) (cursor, []string) {
	t.Helper()
	var got []string
	for {
		f, err := s.read(bg, "ws1", c, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range f.Changes {
			got = append(got, ch.ID)
		}
		if c, err = parseCursor(f.Cursor); err != nil {
			t.Fatal(err)
		}
		if !f.More {
			return c, got
		}
	}
}

// A transaction that began writing before another but commits after it
// (and numbers its change after it) is still read: a reader never moves
// past a change that may yet become visible.
func TestAChangeCommittedLateIsNeverSkipped(t *testing.T) {
	pool := openDB(t)
	s := &Service{cfg: Config{Pool: pool}}
	c, got := drain(t, s, cursor{})
	if len(got) != 3 { // the project and two notes, as inserted
		t.Fatalf("the first pull: %v", got)
	}
	// T1 takes its transaction id first (an unrelated write), then stays open.
	t1, err := pool.Begin(bg)
	if err != nil {
		t.Fatal(err)
	}
	defer t1.Rollback(bg)
	if _, err := t1.Exec(bg, `INSERT INTO drafts VALUES ('o', 'i', '{}', 'x')`); err != nil {
		t.Fatal(err)
	}
	// T2 changes note B and commits: its change gets the smaller number.
	if _, err := pool.Exec(bg, `UPDATE notes SET version = 2 WHERE id = 'note-b'`); err != nil {
		t.Fatal(err)
	}
	c2, got := drain(t, s, c)
	if len(got) != 0 || c2 != c {
		t.Fatalf("while an older transaction runs, a pull read %v and moved to %v", got, c2)
	}
	if f, err := s.read(bg, "ws1", c2, 10); err != nil || !f.Held {
		t.Fatalf("the pull does not say a committed change is held back: %+v %v", f, err)
	}
	// T1 changes note A (a larger number than B's) and commits.
	if _, err := t1.Exec(bg, `UPDATE notes SET version = 2 WHERE id = 'note-a'`); err != nil {
		t.Fatal(err)
	}
	if err := t1.Commit(bg); err != nil {
		t.Fatal(err)
	}
	c3, got := drain(t, s, c2)
	if len(got) != 2 || got[0] != "note-a" || got[1] != "note-b" {
		t.Fatalf("after both committed: %v", got)
	}
	if _, again := drain(t, s, c3); len(again) != 0 {
		t.Fatalf("read twice: %v", again)
	}
	if f, err := s.read(bg, "ws1", c3, 10); err != nil || f.Held {
		t.Fatalf("nothing is held once all committed: %+v %v", f, err)
	}
}
