package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
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
