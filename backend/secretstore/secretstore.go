// Package secretstore keeps tokens where the OS keychain is missing: it
// says whether a keychain answers here, and keeps tokens in a file only
// its owner can read (0600), one "key<TAB>token" line each, replaced
// whole on each change so a crash never leaves half a token. The team
// sign-in and the forge tokens both fall back to it.
package secretstore

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zalando/go-keyring"
)

// KeychainAnswers reports whether the OS keychain works here. It asks for
// an entry that does not exist: "not found" means it works; any other
// answer (no D-Bus session, no Secret Service) means there is none.
func KeychainAnswers() bool {
	_, err := keyring.Get("osFoundry team server", "osfoundry-probe")
	return err == nil || errors.Is(err, keyring.ErrNotFound)
}

// File keeps tokens by key in the file at Path (0600, its folder 0700).
type File struct{ Path string }

// Get returns the token kept for key, "" when there is none.
func (f File) Get(key string) (string, error) {
	all, err := f.read()
	if err != nil {
		return "", err
	}
	return all[key], nil
}

// Keys lists the keys that have a token, in the file's order.
func (f File) Keys() ([]string, error) {
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Path, err)
	}
	var keys []string
	for _, l := range lines(data) {
		keys = append(keys, l[0])
	}
	return keys, nil
}

// Set keeps token for key beside the other keys' tokens.
func (f File) Set(key, token string) error {
	all, err := f.read()
	if err != nil {
		return err
	}
	all[key] = token
	return f.write(all, key)
}

// Replace keeps token for key and nothing else.
func (f File) Replace(key, token string) error {
	return f.write(map[string]string{key: token}, key)
}

// Delete removes key's token (nil when there is none); the file goes
// when it has no token left.
func (f File) Delete(key string) error {
	all, err := f.read()
	if err != nil {
		return err
	}
	if _, ok := all[key]; !ok {
		return nil
	}
	delete(all, key)
	if len(all) == 0 {
		return f.Clear()
	}
	return f.write(all, "")
}

// Clear removes the file and every token in it.
func (f File) Clear() error {
	if err := os.Remove(f.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing %s: %w", f.Path, err)
	}
	return nil
}

// Where names the file for the screen.
func (f File) Where() string { return "a file only you can read (" + f.Path + ")" }

func lines(data []byte) [][2]string {
	var out [][2]string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		k, tok, ok := strings.Cut(strings.TrimSpace(sc.Text()), "\t")
		if ok && k != "" && tok != "" {
			out = append(out, [2]string{k, tok})
		}
	}
	return out
}

func (f File) read() (map[string]string, error) {
	all := map[string]string{}
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, os.ErrNotExist) {
		return all, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Path, err)
	}
	for _, l := range lines(data) {
		all[l[0]] = l[1]
	}
	return all, nil
}

// write puts all in a new file beside the old one, 0600 from its
// creation, and renames it over; keys keep their order, first the ones
// already there, last is written at the end.
func (f File) write(all map[string]string, last string) error {
	for k, v := range all {
		if strings.ContainsAny(k, "\t\n") || strings.ContainsAny(v, "\t\n") || k == "" || v == "" {
			return fmt.Errorf("saving %s: a key or token is empty or has a tab or line break", f.Path)
		}
	}
	keys, err := f.Keys()
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, k := range keys {
		if v, ok := all[k]; ok && k != last {
			b.WriteString(k + "\t" + v + "\n")
		}
	}
	if v, ok := all[last]; ok {
		b.WriteString(last + "\t" + v + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return fmt.Errorf("saving %s: %w", f.Path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+"-*")
	if err != nil {
		return fmt.Errorf("saving %s: %w", f.Path, err)
	}
	defer os.Remove(tmp.Name())
	if err = tmp.Chmod(0o600); err == nil {
		_, err = tmp.WriteString(b.String())
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
	return fmt.Errorf("saving %s: %w", f.Path, err)
}
