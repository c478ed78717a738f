// Package secretservice starts a private D-Bus session with gnome-keyring's
// Secret Service serving an unlocked login keyring, for tests and the team
// test kit that check where the app keeps its tokens. Never shipped.
package secretservice

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Password unlocks the seed keyring: an empty login keyring made with it.
const Password = "test-keyring-password"

// T is what Start needs of a test (testing.TB, pgtest.Session).
type T interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	TempDir() string
	Cleanup(func())
}

// Missing names the first program the Secret Service needs that is not
// installed, with how to install it; "" when all are.
func Missing() string {
	for _, p := range []string{"dbus-daemon", "dbus-send", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(p); err != nil {
			return p + " is not installed (Debian: apt-get install dbus gnome-keyring; make deps-test does)"
		}
	}
	return ""
}

// Start runs the bus and the keyring (its login keyring from the seed
// file) and returns the bus's address; both end at t's cleanup.
func Start(t T, seed string) string {
	t.Helper()
	if m := Missing(); m != "" {
		t.Fatal(m)
	}
	dir := t.TempDir()
	bus := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1", "--address=unix:path="+filepath.Join(dir, "bus"))
	out, err := bus.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := bus.Start(); err != nil {
		t.Fatalf("starting dbus-daemon: %v", err)
	}
	t.Cleanup(func() { bus.Process.Kill(); bus.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	addr = strings.TrimSpace(addr)
	// The login keyring in place before the daemon starts: one it makes
	// itself at --unlock is not always served on a loaded machine.
	data, err := os.ReadFile(seed)
	if err != nil {
		t.Fatalf("reading the keyring seed: %v", err)
	}
	keyrings := filepath.Join(dir, "data", "keyrings")
	if err := os.MkdirAll(keyrings, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keyrings, "login.keyring"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keyrings, "default"), []byte("login"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+addr, "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_RUNTIME_DIR="+dir, "HOME="+dir)
	// gnome-keyring sometimes serves only its session collection at first
	// on a loaded machine; a second start then serves the login keyring.
	// Three tries, each ended before the next.
	served := "not started"
	for try := 1; try <= 3 && served != ""; try++ {
		startDaemon(t, env, filepath.Join(dir, "gnome-keyring.log"))
		if served = waitForLogin(addr, 10*time.Second); served != "" {
			stopDaemon(addr)
		}
	}
	if served != "" {
		t.Fatalf("gnome-keyring served no login keyring after three starts:\n%s", served)
	}
	t.Cleanup(func() { stopDaemon(addr) })
	return addr
}

// startDaemon runs gnome-keyring with --unlock (the password on stdin
// unlocks the login keyring, as a desktop login does); it forks into the
// background. Its output goes to a file, not a pipe: with a pipe the
// forked daemon serves no login keyring.
func startDaemon(t T, env []string, logPath string) {
	t.Helper()
	gk := exec.Command("sh", "-c", "printf %s "+Password+" | gnome-keyring-daemon --unlock --components=secrets --daemonize")
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

// stopDaemon ends the daemon that owns the Secret Service on addr (it
// forked away from the process started here: the bus names it).
func stopDaemon(addr string) {
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
