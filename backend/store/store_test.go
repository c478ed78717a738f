package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMigrateAppliesOnceInOrderPerComponent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	a := []Migration{{1, `CREATE TABLE a (x INTEGER)`}, {2, `ALTER TABLE a ADD COLUMN y TEXT`}}
	b := []Migration{{1, `CREATE TABLE b (x INTEGER)`}}
	for i := 0; i < 2; i++ { // the second pass must be a no-op
		if err := Migrate(ctx, db, "a", a); err != nil {
			t.Fatalf("pass %d: %v", i, err)
		}
		if err := Migrate(ctx, db, "b", b); err != nil {
			t.Fatalf("pass %d: %v", i, err)
		}
	}
	if _, err := db.Exec(`INSERT INTO a (x, y) VALUES (1, 'ok')`); err != nil {
		t.Fatalf("migration 2 not applied: %v", err)
	}
	var mode string
	db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Fatalf("journal mode %q, want wal", mode)
	}
	db.Close()

	// Reopen: a new migration is applied on top, old ones are not re-run.
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a = append(a, Migration{3, `CREATE INDEX a_x ON a (x)`})
	if err := Migrate(ctx, db, "a", a); err != nil {
		t.Fatal(err)
	}
	var n int
	db.QueryRow(`SELECT COUNT(*) FROM schema_migrations WHERE component = 'a'`).Scan(&n)
	if n != 3 {
		t.Fatalf("component a has %d recorded migrations, want 3", n)
	}
}

func TestMigrateRejectsBadOrderAndRollsBackFailures(t *testing.T) {
	ctx := context.Background()
	db, err := Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := Migrate(ctx, db, "c", []Migration{{2, `SELECT 1`}}); !errors.Is(err, ErrMigrationOrder) {
		t.Fatalf("want ErrMigrationOrder, got %v", err)
	}
	bad := []Migration{{1, `CREATE TABLE d (x INTEGER); CREATE TABLE d (x INTEGER)`}}
	if err := Migrate(ctx, db, "d", bad); err == nil {
		t.Fatal("a failing migration must report an error")
	}
	if _, err := db.Exec(`SELECT * FROM d`); err == nil {
		t.Fatal("a failed migration must leave nothing behind")
	}
}

// Processes that open one fresh data folder at the same moment (the
// window, its hook helper, the command line, a second `osfoundry run`)
// each migrate it; every one of them must succeed and each migration must
// run once.
func TestMigrateFromSeveralProcessesAtOnce(t *testing.T) {
	if path := os.Getenv("STORE_TEST_MIGRATE"); path != "" {
		<-time.After(time.Until(time.Unix(0, mustAtoi(os.Getenv("STORE_TEST_AT")))))
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, c := range []string{"audit", "notes", "panes"} {
			ms := []Migration{{1, `CREATE TABLE ` + c + `_t (x INTEGER)`}, {2, `CREATE TABLE ` + c + `_u (x INTEGER)`}}
			if err := Migrate(context.Background(), db, c, ms); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	path := filepath.Join(t.TempDir(), "osfoundry.db")
	at := time.Now().Add(time.Second).UnixNano()
	const n = 6
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestMigrateFromSeveralProcessesAtOnce$")
			cmd.Env = append(os.Environ(), "STORE_TEST_MIGRATE="+path, "STORE_TEST_AT="+strconv.FormatInt(at, 10))
			out, err := cmd.CombinedOutput()
			if err != nil {
				err = fmt.Errorf("%v: %s", err, out)
			}
			errs <- err
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Errorf("a process failed to open the fresh database: %v", err)
		}
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows int
	db.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&rows)
	if rows != 6 {
		t.Fatalf("schema_migrations has %d rows, want 6 (each migration once)", rows)
	}
}

func mustAtoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// A database from a newer version of the app is refused, not used with a
// schema this version does not know.
func TestMigrateRefusesANewerDatabase(t *testing.T) {
	ctx := context.Background()
	db, err := Open(filepath.Join(t.TempDir(), "osfoundry.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	newer := []Migration{{1, `CREATE TABLE n (x INTEGER)`}, {2, `ALTER TABLE n ADD COLUMN y TEXT`}}
	if err := Migrate(ctx, db, "notes", newer); err != nil {
		t.Fatal(err)
	}
	err = Migrate(ctx, db, "notes", newer[:1])
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("an older schema list was accepted over a newer database: %v", err)
	}
	if !strings.Contains(err.Error(), "newer osFoundry") {
		t.Fatalf("the error does not say what to do: %v", err)
	}
}
