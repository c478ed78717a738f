package pgtest

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// Two databases of the shared cluster are apart, and a stopped server
// comes back with its data.
func TestDatabasesAreApartAndSurviveARestart(t *testing.T) {
	ctx := context.Background()
	a, b := Database(t), Database(t)
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ca.Exec(ctx, `CREATE TABLE x (v int); INSERT INTO x VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	ca.Close(ctx)
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cb.Exec(ctx, `SELECT * FROM x`); err == nil {
		t.Error("a table of one database is seen from another")
	}
	cb.Close(ctx)
	c := Shared(t)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := pgx.Connect(ctx, a); err == nil {
		t.Fatal("connected to a stopped server")
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	ca, err = pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	var v int
	if err := ca.QueryRow(ctx, `SELECT v FROM x`).Scan(&v); err != nil || v != 7 {
		t.Fatalf("after restart: %d, %v", v, err)
	}
}
