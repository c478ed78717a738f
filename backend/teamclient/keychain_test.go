package teamclient

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// Without a keychain (no D-Bus session here) the token goes to a file
// only its owner can read, replaced whole on each rotation, and the
// screen names that file.
func TestNoKeychainMeansA0600File(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-bus"))
	dir := t.TempDir()
	s := ChooseSecrets(dir)
	f, ok := s.(TokenFile)
	if !ok {
		t.Fatalf("without a D-Bus session the store is %T (%s)", s, s.Where())
	}
	if _, err := f.Get("https://team.example.com"); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("an empty store: %v", err)
	}
	for _, tok := range []string{"osfdr_one", "osfdr_two"} {
		if err := f.Set("https://team.example.com", tok); err != nil {
			t.Fatal(err)
		}
		if m := fileMode(t, f.Path); m != 0o600 {
			t.Fatalf("mode %o, want 600", m)
		}
		if got, err := f.Get("https://team.example.com"); got != tok || err != nil {
			t.Fatalf("read back %q, %v", got, err)
		}
	}
	if _, err := f.Get("https://other.example.com"); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("another server's token: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("files left beside the token: %v", entries)
	}
	if !strings.Contains(f.Where(), f.Path) {
		t.Fatalf("Where: %q", f.Where())
	}
	if err := f.Delete(""); err != nil || fileExists(f.Path) {
		t.Fatalf("delete: %v", err)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// startSecretService runs a private D-Bus session with gnome-keyring's
// Secret Service (an unlocked login keyring) and points this process at
// it; it skips, saying why, where gnome-keyring is not installed.
func startSecretService(t *testing.T) {
	t.Helper()
	for _, p := range []string{"dbus-daemon", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (Debian: apt-get install dbus gnome-keyring; make deps-test does): the Secret Service path is not tested here", p)
		}
	}
	dir := t.TempDir()
	bus := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1", "--address=unix:path="+filepath.Join(dir, "bus"))
	out, _ := bus.StdoutPipe()
	if err := bus.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bus.Process.Kill(); bus.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	addr = strings.TrimSpace(addr)
	// an empty login keyring made with the password below, in place
	// before the daemon starts: one it makes itself at --unlock is not
	// always served on a loaded machine
	keyrings := filepath.Join(dir, "data", "keyrings")
	seed, err := os.ReadFile(filepath.Join("testdata", "login.keyring"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(keyrings, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keyrings, "login.keyring"), seed, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keyrings, "default"), []byte("login"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+addr, "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_RUNTIME_DIR="+dir, "HOME="+dir)
	// gnome-keyring sometimes comes up serving only its session
	// collection on a loaded machine; a second start then serves the
	// login keyring. Three tries, each ended before the next.
	var served string
	for try := 1; try <= 3; try++ {
		startKeyringDaemon(t, env, filepath.Join(dir, "gnome-keyring.log"))
		if served = waitForLogin(addr, 10*time.Second); served == "" {
			break
		}
		t.Logf("gnome-keyring start %d served no login keyring; starting it again", try)
		stopKeyringDaemon(addr)
	}
	if served != "" {
		t.Fatalf("gnome-keyring served no login keyring after three starts:\n%s", served)
	}
	t.Cleanup(func() { stopKeyringDaemon(addr) })
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := keyring.Get(keychainService, "osfoundry-probe")
		if errors.Is(err, keyring.ErrNotFound) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gnome-keyring's Secret Service did not answer: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// With a Secret Service the app keeps the token there (nothing on disk
// but team.json), rotates it there, and Sign out removes it.
func testSecretService(t *testing.T, tm *teamtest.Team) {
	startSecretService(t)
	d := newDesktop(t, tm, approveAs(t, tm, tm.Owner, "alice", "allow"))
	d.o.Secrets = nil // as the app: choose at the first sign-in
	st, err := d.Join(bg, tm.LB.URL)
	if err != nil || st.State != Connected || st.TokenStore != "Secret Service" {
		t.Fatalf("join: %+v %v", st, err)
	}
	tok, err := keyring.Get(keychainService, tm.LB.URL)
	if err != nil || !strings.HasPrefix(tok, "osfdr_") {
		t.Fatalf("the Secret Service holds %q, %v", tok[:min(6, len(tok))], err)
	}
	if entries, _ := os.ReadDir(d.dir); len(entries) != 1 || entries[0].Name() != "team.json" {
		t.Fatalf("files in the data folder: %v", entries)
	}
	d.clock.Advance(16 * time.Minute)
	if st := d.Status(bg); st.State != Connected {
		t.Fatalf("refresh: %+v", st)
	}
	if again, _ := keyring.Get(keychainService, tm.LB.URL); again == tok {
		t.Fatal("the rotated token was not saved in the Secret Service")
	}
	if st, err := d.SignOut(bg); err != nil || st.State != SignedOut {
		t.Fatalf("sign out: %+v %v", st, err)
	}
	if _, err := keyring.Get(keychainService, tm.LB.URL); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("the Secret Service still holds the token: %v", err)
	}
}

// startKeyringDaemon runs gnome-keyring with --unlock (the password on
// stdin unlocks the login keyring, as a desktop login does); it forks
// into the background. Its output goes to a file, not a pipe: with a
// pipe the forked daemon serves no login keyring.
func startKeyringDaemon(t *testing.T, env []string, logPath string) {
	t.Helper()
	gk := exec.Command("sh", "-c", "printf %s test-keyring-password | gnome-keyring-daemon --unlock --components=secrets --daemonize")
	gk.Env = env
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	gk.Stdout, gk.Stderr = logf, logf
	if err := gk.Run(); err != nil {
		log, _ := os.ReadFile(logPath)
		t.Fatalf("gnome-keyring-daemon: %v\n%s", err, log)
	}
}

// waitForLogin is "" once the Secret Service on addr serves the login
// keyring, else its last answer after d.
func waitForLogin(addr string, d time.Duration) string {
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		out, _ := exec.Command("dbus-send", "--bus="+addr, "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
			"org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.Secret.Service", "string:Collections").CombinedOutput()
		if strings.Contains(string(out), "/collection/login") {
			return ""
		}
		if time.Since(start) > d {
			return string(out)
		}
	}
}

// stopKeyringDaemon ends the daemon that owns the Secret Service on addr
// (it forked away from the process the test started: the bus names it).
func stopKeyringDaemon(addr string) {
	out, err := exec.Command("dbus-send", "--bus="+addr, "--print-reply", "--dest=org.freedesktop.DBus", "/",
		"org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.secrets").Output()
	f := strings.Fields(string(out))
	if err != nil || len(f) < 2 {
		return
	}
	pid, err := strconv.Atoi(f[len(f)-1])
	if err != nil {
		return
	}
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
		for i := 0; i < 50 && p.Signal(syscall.Signal(0)) == nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	}
}
