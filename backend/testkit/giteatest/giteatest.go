// Package giteatest starts a real Gitea for tests: the pinned version built
// from the Go module proxy by build/scripts/gitea.sh (once, cached under
// build/agents/gitea), on loopback, with SQLite in a temporary folder, a
// throw-away admin and a second user without rights on the admin's
// repositories, each with an API token. Only tests import it.
package giteatest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running Gitea.
type Server struct {
	URL  string // http://127.0.0.1:<port>
	Host string // 127.0.0.1:<port>
	// Admin owns the repositories the tests make; Reader is another user
	// who may read public repositories but push to none of the admin's.
	Admin, Reader User
	dir           string
}

// User is an account with an API token that may do everything its user may.
type User struct {
	Name, Password, Token string
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Binary builds Gitea with build/scripts/gitea.sh when it is not built
// yet and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..", "..")
		cmd := exec.Command("bash", filepath.Join(root, "build", "scripts", "gitea.sh"))
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			buildErr = fmt.Errorf("building Gitea (build/scripts/gitea.sh): %w\n%s", err, errb.String())
			return
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		binPath = lines[len(lines)-1]
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func secret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Start runs a Gitea for the test and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	port := freePort(t)
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), Host: fmt.Sprintf("127.0.0.1:%d", port), dir: dir}
	ini := fmt.Sprintf(`APP_NAME = osFoundry test forge
RUN_MODE = prod
WORK_PATH = %[1]s

[database]
DB_TYPE = sqlite3
PATH = %[1]s/gitea.db

[repository]
ROOT = %[1]s/repos

[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = %[2]d
ROOT_URL = http://127.0.0.1:%[2]d/
DISABLE_SSH = true
OFFLINE_MODE = true
LFS_START_SERVER = false
APP_DATA_PATH = %[1]s/data
STATIC_ROOT_PATH = %[5]s

[security]
INSTALL_LOCK = true
SECRET_KEY = %[3]s
INTERNAL_TOKEN = %[4]s
PASSWORD_HASH_ALGO = pbkdf2_hi

[oauth2]
ENABLED = false

[service]
DISABLE_REGISTRATION = true
REQUIRE_SIGNIN_VIEW = false

[mailer]
ENABLED = false

[indexer]
ISSUE_INDEXER_TYPE = db
REPO_INDEXER_ENABLED = false

[cron]
ENABLED = false

[log]
MODE = console
LEVEL = Warn
ROOT_PATH = %[1]s/log
`, dir, port, secret(), secret(), filepath.Dir(bin))
	conf := filepath.Join(dir, "app.ini")
	if err := os.WriteFile(conf, []byte(ini), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append(args, "--config", conf)...)
		cmd.Dir = dir
		cmd.Env = s.env()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("gitea %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("migrate")
	s.Admin = User{Name: "osf-admin", Password: "admin-" + secret()[:16]}
	s.Reader = User{Name: "osf-reader", Password: "reader-" + secret()[:16]}
	run("admin", "user", "create", "--admin", "--username", s.Admin.Name, "--password", s.Admin.Password,
		"--email", "admin@example.invalid", "--must-change-password=false")
	run("admin", "user", "create", "--username", s.Reader.Name, "--password", s.Reader.Password,
		"--email", "reader@example.invalid", "--must-change-password=false")
	s.Admin.Token = lastLine(run("admin", "user", "generate-access-token", "--username", s.Admin.Name,
		"--token-name", "tests", "--scopes", "all", "--raw"))
	s.Reader.Token = lastLine(run("admin", "user", "generate-access-token", "--username", s.Reader.Name,
		"--token-name", "tests", "--scopes", "all", "--raw"))

	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "web", "--config", conf)
	cmd.Dir = dir
	cmd.Env = s.env()
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting gitea web: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.URL + "/api/v1/version")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-done:
			t.Fatalf("gitea web exited before answering:\n%s", logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("gitea web did not answer on %s within 60 s:\n%s", s.URL, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	return s
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// env is the environment Gitea runs with: its own HOME (git config) and,
// in CI containers that run as root, Gitea's own switch for that.
func (s *Server) env() []string {
	env := append(os.Environ(), "HOME="+s.dir, "GITEA_WORK_DIR="+s.dir, "USER=osf-gitea")
	if os.Geteuid() == 0 {
		env = append(env, "GITEA_I_AM_BEING_UNSAFE_RUNNING_AS_ROOT=true")
	}
	return env
}
