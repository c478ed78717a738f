//go:build !windows

package crashtest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/cli"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/store"
)

// TestMain lets the test re-run this binary as `osfoundry <args>` (what
// the osfoundry program runs), so the server killed is a real process.
func TestMain(m *testing.M) {
	if os.Getenv("OSF_CRASHTEST_CLI") == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(cli.Main(args))
	}
	os.Exit(m.Run())
}

// serveProc is one running `osfoundry serve`.
type serveProc struct {
	cmd  *exec.Cmd
	link string // owner sign-in link it printed
	done chan struct{}
}

func startServe(t *testing.T, home, addr string) *serveProc {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$", "--", "serve", "--addr", addr)
	cmd.Env = append(os.Environ(), "OSF_CRASHTEST_CLI=1", appdir.EnvHome+"="+home)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting osfoundry serve: %v", err)
	}
	p := &serveProc{cmd: cmd, done: make(chan struct{})}
	t.Cleanup(func() { p.kill() })
	lines := bufio.NewScanner(out)
	ready := make(chan string, 1)
	go func() {
		var link string
		for lines.Scan() {
			l := strings.TrimSpace(lines.Text())
			if strings.Contains(l, "/oauth/signin?token=") {
				link = l
				ready <- link
			}
		}
		close(ready)
	}()
	go func() { cmd.Wait(); close(p.done) }()
	select {
	case link, ok := <-ready:
		if !ok {
			t.Fatal("osfoundry serve ended before printing its sign-in link")
		}
		p.link = link
	case <-time.After(30 * time.Second):
		t.Fatal("osfoundry serve printed no sign-in link within 30 s")
	}
	return p
}

func (p *serveProc) kill() {
	if p.cmd.Process != nil {
		p.cmd.Process.Signal(syscall.SIGKILL)
	}
	<-p.done
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func hashOf(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// refresh is one rotation as a host sends it.
func refresh(hc *http.Client, base, clientID, rt string) (int, string, error) {
	resp, err := hc.PostForm(base+"/oauth/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "client_id": {clientID}})
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, "", err
	}
	var out struct {
		RefreshToken string `json:"refresh_token"`
		Error        string `json:"error"`
	}
	json.Unmarshal(b, &out)
	if resp.StatusCode == http.StatusOK {
		return 200, out.RefreshToken, nil
	}
	return resp.StatusCode, out.Error, nil
}

// familyState reads, with the server dead, what the database holds for the
// family of refresh token rt: whether rt itself was used, and how many of
// the family's refresh tokens are still usable.
func familyState(t *testing.T, dbPath, rt string) (used bool, live int, access, refreshes int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var family string
	var u int
	if err := db.QueryRow(`SELECT family, used FROM connect_tokens WHERE hash = ?`, hashOf(rt)).Scan(&family, &u); err != nil {
		t.Fatalf("reading the refresh token the host holds: %v", err)
	}
	now := time.Now().UnixMilli()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.QueryRow(`SELECT COUNT(*) FROM connect_tokens WHERE family = ? AND kind = 'refresh' AND used = 0 AND revoked = 0 AND expires_at > ?`, family, now).Scan(&live))
	must(db.QueryRow(`SELECT COUNT(*) FROM connect_tokens WHERE family = ? AND kind = 'access'`, family).Scan(&access))
	must(db.QueryRow(`SELECT COUNT(*) FROM connect_tokens WHERE family = ? AND kind = 'refresh'`, family).Scan(&refreshes))
	return u != 0, live, access, refreshes
}

// TestRefreshRotationSurvivesSIGKILL rotates refresh tokens as fast as a
// host can against a real `osfoundry serve` and kills the process at random
// points, over and over. After each kill the family of the token the host
// last sent is rotated or not — exactly one usable refresh token, each
// refresh token issued with its access token — and after a restart the
// server agrees: the old token works when it was not rotated, and counts as
// reused when it was.
func TestRefreshRotationSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills osfoundry serve many times")
	}
	home := t.TempDir()
	seed(t, home)
	addr := freeAddr(t)
	base := "http://" + addr
	hc := &http.Client{Timeout: 10 * time.Second}
	p := startServe(t, home, addr)
	b := connecttest.NewBrowser(base)
	if err := b.SignIn(p.link); err != nil {
		t.Fatal(err)
	}
	c := &connecttest.Client{HTTP: hc, Resource: base + "/mcp", Browser: b, Redirect: "http://127.0.0.1:1/cb", Name: "crash test"}
	tok, _, err := c.Discover(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rt := tok.RefreshToken
	dbPath := filepath.Join(home, store.FileName)
	rotatedAtKill, keptAtKill, midRequest, total := 0, 0, 0, 0
	const kills = 20
	for cycle := 0; cycle < kills; cycle++ {
		// Rotate in a tight loop; kill after a random 5–60 ms.
		var mu sync.Mutex
		interrupted := "" // the token sent in the request the kill cut off
		stop := make(chan struct{})
		loopDone := make(chan struct{})
		go func() {
			defer close(loopDone)
			for {
				select {
				case <-stop:
					return
				default:
				}
				mu.Lock()
				cur := rt
				mu.Unlock()
				st, next, err := refresh(hc, base, c.ClientID(), cur)
				if err != nil {
					mu.Lock()
					interrupted = cur // the server died under this request
					mu.Unlock()
					return
				}
				if st != 200 {
					t.Errorf("cycle %d: rotation refused before the kill: %d %s", cycle, st, next)
					return
				}
				mu.Lock()
				rt = next
				total++
				mu.Unlock()
			}
		}()
		time.Sleep(time.Duration(5+rand.IntN(55)) * time.Millisecond)
		p.kill()
		close(stop)
		<-loopDone
		if t.Failed() {
			return
		}
		// The host holds the newest token whose answer arrived; a request
		// the kill cut off carried that same token.
		mu.Lock()
		inflight := rt
		if interrupted != "" {
			midRequest++
			if interrupted != rt {
				t.Fatalf("cycle %d: the cut-off request carried a token the host no longer held", cycle)
			}
		}
		mu.Unlock()
		used, live, access, refreshes := familyState(t, dbPath, inflight)
		if live != 1 {
			t.Fatalf("cycle %d: after SIGKILL the family has %d usable refresh tokens (used=%v), want exactly 1", cycle, live, used)
		}
		if access != refreshes {
			t.Fatalf("cycle %d: %d access tokens for %d refresh tokens: a rotation was half written", cycle, access, refreshes)
		}
		p = startServe(t, home, addr)
		st, next, err := refresh(hc, base, c.ClientID(), inflight)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !used && st == 200:
			keptAtKill++
			rt = next
		case used && st == 400 && next == "invalid_grant":
			// Rotated, but the answer never reached the host: its token is
			// spent, the reuse revokes the family, and it signs in again.
			rotatedAtKill++
			if _, live, _, _ := familyState(t, dbPath, inflight); live != 0 {
				t.Fatalf("cycle %d: reuse after a completed rotation left %d usable refresh tokens", cycle, live)
			}
			tok, _, err := c.Discover(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			rt = tok.RefreshToken
		default:
			t.Fatalf("cycle %d: after restart the token the host holds (used=%v) got %d %s", cycle, used, st, next)
		}
	}
	t.Logf("%d rotations, %d kills (%d during a request): %d left the family as it was, %d completed the rotation",
		total, kills, midRequest, keptAtKill, rotatedAtKill)
	if total == 0 {
		t.Fatal("no rotation ran before the kills")
	}
}

// seed gives the owner a workspace to connect.
func seed(t *testing.T, home string) {
	t.Helper()
	db, err := store.Open(filepath.Join(home, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, st, err := notesres.Open(context.Background(), db, appdir.Knowledge(home), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateWorkspace(context.Background(), "ws-crash", "Crash"); err != nil {
		t.Fatal(fmt.Errorf("seeding a workspace: %w", err))
	}
}
