package teamclient

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/secretservice"
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
	if m := secretservice.Missing(); m != "" {
		t.Skipf("%s: the Secret Service path is not tested here", m)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", secretservice.Start(t, filepath.Join("testdata", "login.keyring")))
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
