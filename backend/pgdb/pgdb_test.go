package pgdb

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// Five replicas starting at once run each migration once; an older
// replica then refuses the newer schema and says what to do.
func TestMigrateOnceUnderTheLockAndRefuseNewer(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t)
	var wg sync.WaitGroup
	errs := make([]error, 5)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pool, err := Open(ctx, url)
			if err != nil {
				errs[i] = err
				return
			}
			defer pool.Close()
			errs[i] = Migrate(ctx, pool, "things", os.DirFS("testdata/v2"))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	pool, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var applied int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM schema_things WHERE version_id > 0`).Scan(&applied); err != nil || applied != 2 {
		t.Fatalf("applied rows = %d, %v; want each of 2 migrations once", applied, err)
	}
	err = Migrate(ctx, pool, "things", os.DirFS("testdata/v1"))
	if !errors.Is(err, ErrSchemaNewer) || !strings.Contains(err.Error(), "upgrade this server") {
		t.Fatalf("an older server on a newer schema: %v", err)
	}
}

func TestOpenSaysWhatToDo(t *testing.T) {
	ctx := context.Background()
	_, err := Open(ctx, "postgres://osf:secret@127.0.0.1:1/x?sslmode=disable&connect_timeout=2")
	if err == nil || !strings.Contains(err.Error(), "cannot reach PostgreSQL at 127.0.0.1:1") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("unreachable: %v", err)
	}
	_, err = Open(ctx, "postgres://osf:secret@[::1")
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "cannot be read") {
		t.Fatalf("unreadable URL: %v", err)
	}
}
