package teamclient

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/zalando/go-keyring"
)

// Secrets keeps the one refresh token of the joined server.
type Secrets interface {
	Get(server string) (string, error) // ErrNoSecret when none
	Set(server, token string) error
	Delete(server string) error // nil when none
	// Where names the store for the screen.
	Where() string
}

// ErrNoSecret means no token is stored for that server.
var ErrNoSecret = errors.New("no sign-in stored on this computer")

// keychainService is the entry's service name in the OS keychain.
const keychainService = "osFoundry team server"

// Keychain is the OS keychain through go-keyring: the Secret Service
// (GNOME Keyring, KWallet) over D-Bus, macOS Keychain, Windows Credential
// Manager.
type Keychain struct{}

var _ Secrets = Keychain{}

func (Keychain) Get(server string) (string, error) {
	v, err := keyring.Get(keychainService, server)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", ErrNoSecret
	}
	if err != nil {
		return "", fmt.Errorf("reading the sign-in from the keychain: %w", err)
	}
	return v, nil
}

func (Keychain) Set(server, token string) error {
	if err := keyring.Set(keychainService, server, token); err != nil {
		return fmt.Errorf("saving the sign-in in the keychain: %w", err)
	}
	return nil
}

func (Keychain) Delete(server string) error {
	if err := keyring.Delete(keychainService, server); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("removing the sign-in from the keychain: %w", err)
	}
	return nil
}

func (Keychain) Where() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS Keychain"
	case "windows":
		return "Windows Credential Manager"
	}
	return "Secret Service"
}

// TokenFile keeps the token in a file only its owner can read (0600),
// for systems without a keychain (a server without a desktop session).
type TokenFile struct{ Path string }

var _ Secrets = TokenFile{}

// fileEntry is one line: the server, a tab, the token.
func (f TokenFile) Get(server string) (string, error) {
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, os.ErrNotExist) {
		return "", ErrNoSecret
	}
	if err != nil {
		return "", fmt.Errorf("reading the sign-in file: %w", err)
	}
	s, tok, ok := strings.Cut(strings.TrimSpace(string(data)), "\t")
	if !ok || s != server || tok == "" {
		return "", ErrNoSecret
	}
	return tok, nil
}

// Set writes a new file beside the old one and renames it over, so a
// crash never leaves half a token; the file is 0600 from its creation.
func (f TokenFile) Set(server, token string) error {
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return fmt.Errorf("saving the sign-in file: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".team-token-*")
	if err != nil {
		return fmt.Errorf("saving the sign-in file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err == nil {
		_, err = tmp.WriteString(server + "\t" + token + "\n")
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), f.Path)
		}
		if err == nil {
			return nil
		}
	}
	tmp.Close()
	return fmt.Errorf("saving the sign-in file: %w", err)
}

func (f TokenFile) Delete(string) error {
	if err := os.Remove(f.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing the sign-in file: %w", err)
	}
	return nil
}

func (f TokenFile) Where() string { return "a file only you can read (" + f.Path + ")" }

// ChooseSecrets is the OS keychain when one answers, else a 0600 file in
// dir. The keychain is asked for an entry that does not exist: "not
// found" means it works; any other answer (no D-Bus session, no Secret
// Service) means there is none.
func ChooseSecrets(dir string) Secrets {
	if _, err := keyring.Get(keychainService, "osfoundry-probe"); err == nil || errors.Is(err, keyring.ErrNotFound) {
		return Keychain{}
	}
	return TokenFile{Path: filepath.Join(dir, "team-token")}
}
