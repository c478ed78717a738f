// Package pgtest starts a throw-away PostgreSQL cluster for tests: Debian's
// server binaries, initdb as an unprivileged user (initdb refuses root), a
// free loopback port, a fresh database per test, everything removed after.
//
// A test binary shares one cluster:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//	func TestX(t *testing.T) { url := pgtest.Database(t) }
//
// There is no skip: a machine without the server binaries fails with what
// to install, so `make test` can never pass without PostgreSQL.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is one running PostgreSQL server.
type Cluster struct {
	Port int
	dir  string // data directory (owned by the server's user)
	bin  string
	cred *credential // nil when not root
	mu   sync.Mutex
	n    int
}

var (
	shared    *Cluster
	sharedErr error
	once      sync.Once
)

// Main runs the tests and stops the shared cluster afterwards.
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		shared.Remove()
	}
	return code
}

// Shared returns the test binary's cluster, starting it on first use.
func Shared(t TB) *Cluster {
	t.Helper()
	once.Do(func() { shared, sharedErr = Start() })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

// Database creates an empty database in the shared cluster and returns its
// URL; it is dropped when the test ends.
func Database(t TB) string {
	t.Helper()
	return Shared(t).Database(t)
}

// BinDir finds the newest installed PostgreSQL server's bin directory.
func BinDir() (string, error) {
	if d := os.Getenv("OSF_PG_BIN"); d != "" {
		return d, nil
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
		return "", errors.New("PostgreSQL server binaries not found (no /usr/lib/postgresql/*/bin/initdb): install Debian's postgresql package (make deps-test does) or set OSF_PG_BIN")
	}
	sort.Slice(found, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(found[i]))))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(found[j]))))
		return a > b
	})
	return filepath.Dir(found[0]), nil
}

// Start initialises and starts a new cluster on a free loopback port.
func Start() (*Cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "osf-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: data folder: %w", err)
	}
	c := &Cluster{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, errors.New("pgtest: running as root needs the postgres user to run initdb (Debian's postgresql package creates it)")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = newCredential(uid, gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("pgtest: %w", err)
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", "osf", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	if err := c.Start(); err != nil {
		c.Remove()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	if c.cred != nil {
		runAs(cmd, c.cred)
	}
	return cmd.CombinedOutput()
}

// Start starts the (stopped) server again, on a new free port the first
// time and on the same port after Stop.
func (c *Cluster) Start() error {
	for try := 0; ; try++ {
		if c.Port == 0 || try > 0 {
			p, err := freePort()
			if err != nil {
				return err
			}
			c.Port = p
		}
		opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300",
			c.Port, c.dir)
		out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-l", filepath.Join(c.dir, "log"), "-o", opts, "-w", "-t", "60", "start")
		if err == nil {
			return nil
		}
		if try >= 2 {
			log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
			return fmt.Errorf("pgtest: pg_ctl start: %w\n%s\n%s", err, out, log)
		}
	}
}

// Stop stops the server at once (immediate mode: like a crash, connections
// are cut), keeping its data for Start.
func (c *Cluster) Stop() error {
	if out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop"); err != nil {
		return fmt.Errorf("pgtest: pg_ctl stop: %w\n%s", err, out)
	}
	return nil
}

// Remove stops the server and deletes its files.
func (c *Cluster) Remove() {
	_ = c.Stop()
	os.RemoveAll(c.dir)
}

// URL is the address of database db in the cluster.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://osf@127.0.0.1:%d/%s?sslmode=disable", c.Port, db)
}

// Database creates an empty database and returns its URL; it is dropped
// when t ends.
func (c *Cluster) Database(t TB) string {
	t.Helper()
	c.mu.Lock()
	c.n++
	name := fmt.Sprintf("t%d_%d", os.Getpid(), c.n)
	c.mu.Unlock()
	if err := c.exec(fmt.Sprintf("CREATE DATABASE %s TEMPLATE template0", name)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.exec(fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)) })
	return c.URL(name)
}

func (c *Cluster) exec(sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return fmt.Errorf("pgtest: connect: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		return fmt.Errorf("pgtest: %s: %w", sql, err)
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
