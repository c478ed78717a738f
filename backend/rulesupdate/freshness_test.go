package rulesupdate

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const newerRules = "[[rules]]\nstate = \"blocked\"\nany = ['Approve now\\?']\n"

// A validly signed bundle is still refused when it is older than the one
// installed, has the installed version with other rules, or has expired:
// that is what a stale mirror or a replayed copy looks like. Each refusal
// says what to do and leaves the installed rules as they were.
func TestUpdateRefusesOlderSameVersionAndExpiredBundles(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }))
	defer srv.Close()
	home := t.TempDir()
	now := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	update := func(p Payload) (Installed, error) {
		t.Helper()
		var err error
		if body, err = Sign(p, priv); err != nil {
			t.Fatal(err)
		}
		return Update(context.Background(), Options{URL: srv.URL, Home: home, Key: base64.StdEncoding.EncodeToString(pub), Now: func() time.Time { return now }})
	}
	claude := func() string {
		b, _ := os.ReadFile(filepath.Join(Folder(home), "claude.toml"))
		return string(b)
	}
	const later = "2027-06-01T00:00:00Z"
	if _, err := update(Payload{Version: "2026.12.01", Expires: later, Files: map[string]string{"claude.toml": newerRules}}); err != nil {
		t.Fatalf("installing the current bundle: %v", err)
	}
	// The same bundle again is fine.
	if _, err := update(Payload{Version: "2026.12.01", Expires: later, Files: map[string]string{"claude.toml": newerRules}}); err != nil {
		t.Fatalf("installing the same bundle again: %v", err)
	}
	for _, c := range []struct {
		name string
		p    Payload
		want string
	}{
		{"older", Payload{Version: "2026.11.30", Expires: later, Files: map[string]string{"claude.toml": okRules}}, "older than the installed 2026.12.01"},
		{"older by a shorter version", Payload{Version: "v2026", Expires: later, Files: map[string]string{"claude.toml": okRules}}, "older than the installed"},
		{"same version, other rules", Payload{Version: "2026.12.01", Expires: later, Files: map[string]string{"claude.toml": okRules}}, "must carry a newer version"},
		{"expired yesterday", Payload{Version: "2026.12.09", Expires: "2026-12-04T00:00:00Z", Files: map[string]string{"claude.toml": okRules}}, "expired on 2026-12-04"},
	} {
		_, err := update(c.p)
		if err == nil || !errors.Is(err, ErrUnchanged) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want a refusal saying %q and that nothing was changed", c.name, err, c.want)
		}
		if claude() != newerRules {
			t.Fatalf("%s: the installed rules changed", c.name)
		}
	}
	// A newer one installs.
	if _, err := update(Payload{Version: "2026.12.10", Expires: later, Files: map[string]string{"claude.toml": okRules}}); err != nil || claude() != okRules {
		t.Fatalf("a newer bundle: %v", err)
	}
}

// A bundle signed before versions and expiries were checked (no version,
// no expiry) still installs where nothing newer is installed.
func TestUpdateInstallsABundleWithoutVersionOrExpiry(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	payload, _ := json.Marshal(map[string]any{"format": 1, "files": map[string]string{"claude.toml": okRules}})
	body, _ := json.Marshal(Bundle{Payload: base64.StdEncoding.EncodeToString(payload), Signature: base64.StdEncoding.EncodeToString(ed25519.Sign(priv, payload))})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }))
	defer srv.Close()
	if _, err := Update(context.Background(), Options{URL: srv.URL, Home: t.TempDir(), Key: base64.StdEncoding.EncodeToString(pub)}); err != nil {
		t.Fatalf("a bundle without version or expiry: %v", err)
	}
}

// A redirect must meet the rule the first address did: an allowed address
// that hands the request to plain http off this machine is refused before
// anything is fetched from there.
func TestFetchRefusesARedirectToPlainHTTP(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	bundle, err := Sign(Payload{Version: "1", Expires: "2099-01-01T00:00:00Z", Files: map[string]string{"claude.toml": okRules}}, priv)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.RedirectHandler("http://rules.example/bundle.json", http.StatusFound))
	defer srv.Close()
	fetchedOffMachine := false
	// The transport answers for rules.example as a network attacker on
	// that plain-http path would: with a (validly signed) bundle.
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		if r.URL.Host == "rules.example" {
			fetchedOffMachine = true
			return &http.Response{StatusCode: 200, Status: "200 OK", Body: io.NopCloser(bytes.NewReader(bundle)), Header: http.Header{}, Request: r}, nil
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
	home := t.TempDir()
	_, err = Update(context.Background(), Options{URL: srv.URL, Home: home, Key: base64.StdEncoding.EncodeToString(pub), Client: client})
	if err == nil || !strings.Contains(err.Error(), "use an https:// address") || !errors.Is(err, ErrUnchanged) {
		t.Fatalf("redirect to plain http: %v; want a refusal asking for https", err)
	}
	if fetchedOffMachine {
		t.Error("the redirect was followed to plain http off this machine")
	}
	if _, ok, _ := ReadInstalled(home); ok {
		t.Error("a bundle was installed")
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
