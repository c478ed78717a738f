package forge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/zalando/go-keyring"
)

// TokenSource finds the token for a forge host.
type TokenSource interface {
	// Token returns the token and where it came from ("keychain", "gh",
	// "glab"); ErrNoToken (wrapped, saying what to do) when there is none.
	Token(ctx context.Context, h Host) (token, from string, err error)
}

// Keychain keeps pasted tokens, one per host, in the OS keychain.
type Keychain interface {
	Get(host string) (string, error) // "" and nil when none
	Set(host, token string) error
	Delete(host string) error
	Where() string // names the store for the screen
}

// keychainService is the entries' service name in the OS keychain.
const keychainService = "osFoundry forge token"

// OSKeychain is the OS keychain through go-keyring (Secret Service,
// macOS Keychain, Windows Credential Manager).
type OSKeychain struct{}

var _ Keychain = OSKeychain{}

func (OSKeychain) Get(host string) (string, error) {
	v, err := keyring.Get(keychainService, host)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the %s token from the keychain: %w", host, err)
	}
	return v, nil
}

func (OSKeychain) Set(host, token string) error {
	if err := keyring.Set(keychainService, host, token); err != nil {
		return fmt.Errorf("saving the %s token in the keychain: %w", host, err)
	}
	return nil
}

func (OSKeychain) Delete(host string) error {
	if err := keyring.Delete(keychainService, host); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("removing the %s token from the keychain: %w", host, err)
	}
	return nil
}

// Runner runs a program (argv) and returns its standard output; tests
// swap it. nil runs the real program.
type Runner func(ctx context.Context, name string, args ...string) (string, error)

func runProgram(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// Tokens is the app's TokenSource: a token the person pasted (kept in
// the keychain) wins, then the forge CLI's own login, asked through the
// CLI itself (its files are never read here).
type Tokens struct {
	Keychain Keychain
	Run      Runner
}

var _ TokenSource = Tokens{}

func (t Tokens) Token(ctx context.Context, h Host) (string, string, error) {
	// A keychain that cannot be read (no Secret Service on this desktop)
	// does not hide the forge CLI's login; the final error names it.
	var kcErr error
	if t.Keychain != nil {
		tok, err := t.Keychain.Get(h.Name)
		if err == nil && tok != "" {
			return tok, "keychain", nil
		}
		kcErr = err
	}
	run := t.Run
	if run == nil {
		run = runProgram
	}
	host := hostOnly(h.Name)
	switch h.Kind {
	case GitHub:
		if tok, err := run(ctx, "gh", "auth", "token", "--hostname", host); err == nil && tok != "" {
			return tok, "gh", nil
		}
	case GitLab:
		if tok, err := run(ctx, "glab", "config", "get", "token", "--host", host); err == nil && tok != "" {
			return tok, "glab", nil
		}
	}
	how := "paste a token"
	switch h.Kind {
	case GitHub:
		how = "sign in with `gh auth login` or paste a token"
	case GitLab:
		how = "sign in with `glab auth login` or paste a token"
	}
	if kcErr != nil {
		return "", "", fmt.Errorf("%w for %s: %s — but the OS keychain, where a pasted token is kept (never in a file), cannot be read here: %v", ErrNoToken, h.Name, how, kcErr)
	}
	where := "the OS keychain"
	if t.Keychain != nil {
		where = t.Keychain.Where()
	}
	return "", "", fmt.Errorf("%w for %s: %s (kept in %s, never in the repository)", ErrNoToken, h.Name, how, where)
}
