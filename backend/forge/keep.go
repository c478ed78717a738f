package forge

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/secretstore"
)

// FileKeychain keeps pasted tokens in a file only the person can read
// (0600) in the app's data folder, where the desktop has no OS keychain
// (no Secret Service): the team sign-in's fallback, shared.
type FileKeychain struct{ File secretstore.File }

var _ Keychain = FileKeychain{}

func (f FileKeychain) Get(host string) (string, error) {
	v, err := f.File.Get(host)
	if err != nil {
		return "", fmt.Errorf("reading the %s token: %w", host, err)
	}
	return v, nil
}

func (f FileKeychain) Set(host, token string) error {
	if err := f.File.Set(host, token); err != nil {
		return fmt.Errorf("saving the %s token: %w", host, err)
	}
	return nil
}

func (f FileKeychain) Delete(host string) error {
	if err := f.File.Delete(host); err != nil {
		return fmt.Errorf("removing the %s token: %w", host, err)
	}
	return nil
}

func (f FileKeychain) Where() string { return f.File.Where() }

// Where names the OS keychain for the screen.
func (OSKeychain) Where() string {
	switch runtime.GOOS {
	case "darwin":
		return "the macOS Keychain"
	case "windows":
		return "the Windows Credential Manager"
	}
	return "the keychain (Secret Service)"
}

// ChooseKeychain is the OS keychain when one answers here, else a 0600
// file (forge-tokens) in the app's data folder dir. It asks on first use,
// not when called: the window builds its forge wing before it opens, and
// asking the Secret Service there cost a D-Bus round trip, and without a
// running keyring daemon the start of one, before every first frame.
func ChooseKeychain(dir string) Keychain {
	return &chosenKeychain{dir: dir}
}

// chosenKeychain is ChooseKeychain's answer, decided once on first use.
type chosenKeychain struct {
	dir  string
	once sync.Once
	kc   Keychain
}

func (c *chosenKeychain) get() Keychain {
	c.once.Do(func() {
		if secretstore.KeychainAnswers() {
			c.kc = OSKeychain{}
			return
		}
		c.kc = FileKeychain{File: secretstore.File{Path: filepath.Join(c.dir, "forge-tokens")}}
	})
	return c.kc
}

func (c *chosenKeychain) Get(host string) (string, error) { return c.get().Get(host) }
func (c *chosenKeychain) Set(host, token string) error    { return c.get().Set(host, token) }
func (c *chosenKeychain) Delete(host string) error        { return c.get().Delete(host) }
func (c *chosenKeychain) Where() string                   { return c.get().Where() }

// PastedToken is a token the person pasted for a forge, as Settings lists
// it (the token itself never leaves the keychain).
type PastedToken struct {
	Host    string `json:"host"`
	Kind    Kind   `json:"kind"`
	Forge   string `json:"forge"` // GitHub, GitLab, Gitea; "" when the host is not known
	Where   string `json:"where"` // the keychain or file it is kept in
	SavedAt int64  `json:"savedAt"`
}

// kindOf is what runs on host: a self-hosted forge from settings, else a
// public one, else "".
func (b *Binding) kindOf(host string) Kind {
	for _, h := range b.settings.Hosts() {
		if h.Name == host {
			return h.Kind
		}
	}
	return knownHosts[host].Kind
}

// PastedTokens lists the hosts a token was pasted for, with where each
// is kept, by host.
func (b *Binding) PastedTokens() []PastedToken {
	out := []PastedToken{}
	for _, p := range b.settings.Pasted() {
		t := PastedToken{Host: p.Host, Kind: b.kindOf(p.Host), Where: b.keychain.Where(), SavedAt: p.SavedAt}
		if t.Kind != "" {
			t.Forge = t.Kind.Label()
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Host < out[j].Host })
	return out
}

// pasted is one host a token was pasted for (kept in forges.json).
type pasted struct {
	Host    string `json:"host"`
	SavedAt int64  `json:"savedAt"`
}

func cleanHost(h string) string { return strings.ToLower(strings.TrimSpace(h)) }

func now() int64 { return time.Now().UnixMilli() }
