package rulesupdate

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const okRules = "[[rules]]\nstate = \"blocked\"\nany = ['Approve\\?']\n"

// Settings' Update installs a signed bundle, applies it to the open panes
// (the reload hook runs once), and Status then names it; a refused bundle
// neither installs nor reloads.
func TestBindingUpdateInstallsAndReloads(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }))
	defer srv.Close()
	home := t.TempDir()
	reloads := 0
	b := NewBinding(home, base64.StdEncoding.EncodeToString(pub), func() ([]error, error) { reloads++; return nil, nil })

	if st, err := b.Status(); err != nil || st.Installed || st.DefaultURL != DefaultURL {
		t.Fatalf("status before: %+v %v", st, err)
	}
	var err error
	if body, err = Sign(Payload{Version: "v7", Expires: "2099-01-01T00:00:00Z", Files: map[string]string{"claude.toml": okRules}}, priv); err != nil {
		t.Fatal(err)
	}
	st, err := b.Update(srv.URL)
	if err != nil || !st.Installed || st.Version != "v7" || reloads != 1 {
		t.Fatalf("update: %+v %v (reloads %d)", st, err, reloads)
	}
	if st, _ := b.Status(); st.Version != "v7" || st.Source != srv.URL || len(st.Files) != 1 {
		t.Errorf("status after: %+v", st)
	}
	// A second update keeps the folder it replaces, and says where.
	st, err = b.Update(srv.URL)
	if err != nil || st.Previous != Folder(home)+".previous" {
		t.Fatalf("second update: %+v %v", st, err)
	}
	if b, _ := os.ReadFile(filepath.Join(st.Previous, "claude.toml")); string(b) != okRules {
		t.Errorf("the kept folder's claude.toml = %q", b)
	}

	_, other, _ := ed25519.GenerateKey(rand.Reader)
	body, _ = Sign(Payload{Version: "v8", Expires: "2099-01-01T00:00:00Z", Files: map[string]string{"claude.toml": okRules}}, other)
	if _, err := b.Update(srv.URL); err == nil || !errors.Is(err, ErrUnchanged) || !strings.Contains(err.Error(), "signature does not match") {
		t.Errorf("foreign key: %v", err)
	}
	if reloads != 2 {
		t.Errorf("reloaded %d times, want no reload for a refused bundle", reloads)
	}
	if st, _ := b.Status(); st.Version != "v7" {
		t.Errorf("after a refused bundle the status says %q, want v7 still", st.Version)
	}
	if b, _ := os.ReadFile(filepath.Join(Folder(home), "claude.toml")); string(b) != okRules {
		t.Errorf("claude.toml changed: %q", b)
	}
}

// Signing refuses files the app would refuse.
func TestSignRefusesBrokenRules(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	if _, err := Sign(Payload{Version: "x", Files: map[string]string{"claude.toml": "[[rules]]\nstate = \"stuck\"\nany = ['x']\n"}}, priv); err == nil || !strings.Contains(err.Error(), `state "stuck"`) {
		t.Errorf("sign of an unknown state: %v", err)
	}
}
