package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// keyringPassword unlocks the throw-away login keyring.
const keyringPassword = "test-keyring-password"

// startSecretService runs a private D-Bus session with gnome-keyring's
// Secret Service serving an unlocked login keyring (seed: an empty login
// keyring made with keyringPassword) and returns the bus's address.
func startSecretService(s *pgtest.Session, seed string) string {
	for _, p := range []string{"dbus-daemon", "dbus-send", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(p); err != nil {
			s.Fatalf("%s is not installed (Debian: apt-get install dbus gnome-keyring; make deps-test does)", p)
		}
	}
	dir := s.TempDir()
	bus := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1", "--address=unix:path="+filepath.Join(dir, "bus"))
	out, err := bus.StdoutPipe()
	if err != nil {
		s.Fatal(err)
	}
	if err := bus.Start(); err != nil {
		s.Fatalf("starting dbus-daemon: %v", err)
	}
	s.Cleanup(func() { bus.Process.Kill(); bus.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		s.Fatalf("dbus-daemon printed no address: %v", err)
	}
	addr = strings.TrimSpace(addr)
	// The login keyring in place before the daemon starts: one it makes
	// itself at --unlock is not always served on a loaded machine.
	data, err := os.ReadFile(seed)
	if err != nil {
		s.Fatalf("reading the keyring seed: %v", err)
	}
	keyrings := filepath.Join(dir, "data", "keyrings")
	if err := os.MkdirAll(keyrings, 0o700); err != nil {
		s.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keyrings, "login.keyring"), data, 0o600); err != nil {
		s.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keyrings, "default"), []byte("login"), 0o600); err != nil {
		s.Fatal(err)
	}
	env := append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+addr, "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_RUNTIME_DIR="+dir, "HOME="+dir)
	// gnome-keyring sometimes serves only its session collection at
	// first on a loaded machine; a second start then serves the login
	// keyring.
	served := "not started"
	for try := 1; try <= 3 && served != ""; try++ {
		// --unlock reads the password on stdin; the daemon forks away, its
		// output to a file (with a pipe it serves no login keyring).
		gk := exec.Command("sh", "-c", "printf %s "+keyringPassword+" | gnome-keyring-daemon --unlock --components=secrets --daemonize")
		gk.Env = env
		logf, err := os.OpenFile(filepath.Join(dir, "gnome-keyring.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			s.Fatal(err)
		}
		gk.Stdout, gk.Stderr = logf, logf
		err = gk.Run()
		logf.Close()
		if err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "gnome-keyring.log"))
			s.Fatalf("gnome-keyring-daemon: %v\n%s", err, log)
		}
		if served = waitForLogin(addr, 10*time.Second); served != "" {
			stopKeyringDaemon(addr)
		}
	}
	if served != "" {
		s.Fatalf("gnome-keyring served no login keyring after three starts:\n%s", served)
	}
	s.Cleanup(func() { stopKeyringDaemon(addr) })
	return addr
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
// (it forked away from the process started here: the bus names it).
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
