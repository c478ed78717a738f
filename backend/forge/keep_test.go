package forge

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Without an OS keychain (no D-Bus session) a pasted token goes to a 0600
// file in the app's data folder; Settings lists the host with its forge and
// that file, never the token; Forget takes it back out of both.
func TestPastedTokensWithoutKeychain(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-bus"))
	dir := t.TempDir()
	kc := ChooseKeychain(dir)
	fk, ok := kc.(*chosenKeychain).get().(FileKeychain)
	if !ok {
		t.Fatalf("without a D-Bus session the store is %T (%s)", kc.(*chosenKeychain).get(), kc.Where())
	}
	settings, err := OpenSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := settings.SetHosts([]Host{{Name: "git.cafe.example:3000", Kind: Gitea}}); err != nil {
		t.Fatal(err)
	}
	b := NewBinding(context.Background(), NewOpener(settings, kc, nil), settings, kc, nil)
	if err := b.SaveToken(" Git.Cafe.Example:3000 ", "tok-gitea"); err != nil {
		t.Fatal(err)
	}
	if err := b.SaveToken("github.com", "ghp-x"); err != nil {
		t.Fatal(err)
	}
	if err := b.SaveToken("github.com", ""); err == nil {
		t.Fatal("an empty token was accepted")
	}
	if st, err := os.Stat(fk.File.Path); err != nil || st.Mode().Perm() != 0o600 || filepath.Dir(fk.File.Path) != dir {
		t.Fatalf("token file %s: %v %v", fk.File.Path, st, err)
	}
	tok, from, err := b.opener.Tokens.Token(context.Background(), Host{Name: "git.cafe.example:3000", Kind: Gitea})
	if tok != "tok-gitea" || from != "keychain" || err != nil {
		t.Fatalf("token read back: %q %q %v", tok, from, err)
	}
	list := b.PastedTokens()
	if len(list) != 2 || list[0].Host != "git.cafe.example:3000" || list[0].Forge != "Gitea" || list[1].Host != "github.com" || list[1].Forge != "GitHub" {
		t.Fatalf("listed: %+v", list)
	}
	if !strings.Contains(list[0].Where, fk.File.Path) || list[0].SavedAt == 0 {
		t.Fatalf("where: %+v", list[0])
	}
	forges, _ := os.ReadFile(filepath.Join(dir, "forges.json"))
	if strings.Contains(string(forges), "tok-gitea") || strings.Contains(string(forges), "ghp-x") {
		t.Fatalf("a token is in the settings file:\n%s", forges)
	}
	// Settings survive a restart.
	again, err := OpenSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	b2 := NewBinding(context.Background(), NewOpener(again, kc, nil), again, kc, nil)
	if len(b2.PastedTokens()) != 2 {
		t.Fatalf("after a restart: %+v", b2.PastedTokens())
	}
	if err := b2.ForgetToken("github.com"); err != nil {
		t.Fatal(err)
	}
	if got := b2.PastedTokens(); len(got) != 1 || got[0].Host != "git.cafe.example:3000" {
		t.Fatalf("after Remove: %+v", got)
	}
	if v, _ := kc.Get("github.com"); v != "" {
		t.Fatalf("the removed token is still kept: %q", v)
	}
	if v, _ := kc.Get("git.cafe.example:3000"); v != "tok-gitea" {
		t.Fatalf("the other token went too: %q", v)
	}
	if err := b2.ForgetToken("git.cafe.example:3000"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fk.File.Path); !os.IsNotExist(err) {
		t.Fatalf("the token file stays empty: %v", err)
	}
}

// Choosing the keychain asks the session bus nothing: the window builds
// its forge wing before it opens. The first use asks, once.
func TestChooseKeychainAsksOnFirstUse(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "bus")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var asked atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			asked.Add(1)
			c.Close() // no Secret Service here: the file is used
		}
	}()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+sock)
	dir := t.TempDir()
	kc := ChooseKeychain(dir)
	time.Sleep(50 * time.Millisecond) // a probe started in the background would have connected by now
	if n := asked.Load(); n != 0 {
		t.Fatalf("ChooseKeychain asked the session bus %d times before any use", n)
	}
	if w := kc.Where(); !strings.Contains(w, filepath.Join(dir, "forge-tokens")) {
		t.Fatalf("without a Secret Service the tokens are kept in %q", w)
	}
	first := asked.Load()
	if first == 0 {
		t.Fatal("the first use did not ask the session bus")
	}
	if err := kc.Set("github.com", "ghp-x"); err != nil {
		t.Fatal(err)
	}
	if v, err := kc.Get("github.com"); v != "ghp-x" || err != nil {
		t.Fatalf("read back %q, %v", v, err)
	}
	if asked.Load() != first {
		t.Fatalf("the bus was asked again after the first use (%d then %d)", first, asked.Load())
	}
}
