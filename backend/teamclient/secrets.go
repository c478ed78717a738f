package teamclient

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/zalando/go-keyring"

	"github.com/osfoundry/desktop/backend/secretstore"
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

func (f TokenFile) Get(server string) (string, error) {
	tok, err := secretstore.File{Path: f.Path}.Get(server)
	if err != nil {
		return "", fmt.Errorf("reading the sign-in file: %w", err)
	}
	if tok == "" {
		return "", ErrNoSecret
	}
	return tok, nil
}

// Set replaces the file whole with this server's token: it keeps one.
func (f TokenFile) Set(server, token string) error {
	if err := (secretstore.File{Path: f.Path}).Replace(server, token); err != nil {
		return fmt.Errorf("saving the sign-in file: %w", err)
	}
	return nil
}

func (f TokenFile) Delete(string) error {
	if err := (secretstore.File{Path: f.Path}).Clear(); err != nil {
		return fmt.Errorf("removing the sign-in file: %w", err)
	}
	return nil
}

func (f TokenFile) Where() string { return secretstore.File{Path: f.Path}.Where() }

// ChooseSecrets is the OS keychain when one answers, else a 0600 file in
// dir.
func ChooseSecrets(dir string) Secrets {
	if secretstore.KeychainAnswers() {
		return Keychain{}
	}
	return TokenFile{Path: filepath.Join(dir, "team-token")}
}
