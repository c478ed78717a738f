//go:build windows

package shellenv

import (
	"context"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows/registry"
)

// Windows has no login shell to ask: a process started from Explorer gets
// the environment Explorer had when the user logged in, which misses a
// PATH an installer (npm, volta, nvm-windows, winget) changed since. The
// registry holds the current one: the system PATH, then the user's (the
// order Windows builds a new logon's PATH in).
const (
	userKey   = `Environment`
	systemKey = `SYSTEM\CurrentControlSet\Control\Session Manager\Environment`
)

// readLogin reads PATH and the allowlisted variables from the registry.
func readLogin(_ context.Context, _ Options) (map[string]string, string, error) {
	sys, sysErr := readKey(registry.LOCAL_MACHINE, systemKey)
	usr, usrErr := readKey(registry.CURRENT_USER, userKey)
	if sysErr != nil && usrErr != nil {
		return nil, "registry", fmt.Errorf("reading PATH from the registry: %w", errors.Join(sysErr, usrErr))
	}
	out := map[string]string{}
	// The user's value wins for every variable but PATH, which Windows
	// concatenates.
	for _, m := range []map[string]string{sys, usr} {
		for k, v := range m {
			out[k] = v
		}
	}
	out["PATH"] = joinList(sys["PATH"], usr["PATH"])
	return out, "registry", nil
}

// readKey returns PATH and the allowlisted values of one Environment key,
// names upper-cased for PATH (the registry spells it Path), %VARS%
// expanded against the process's environment and the key itself.
func readKey(root registry.Key, path string) (map[string]string, error) {
	k, err := registry.OpenKey(root, path, registry.QUERY_VALUE)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	defer k.Close()
	raw := map[string]string{}
	for _, name := range append([]string{"Path"}, Allowlist...) {
		v, typ, err := k.GetStringValue(name)
		if err != nil {
			continue
		}
		if name == "Path" {
			name = "PATH"
		}
		raw[name] = v
		if typ == registry.EXPAND_SZ {
			raw[name] = expand(v, func(n string) (string, bool) {
				if rv, ok := raw[n]; ok && n != name {
					return rv, true
				}
				return os.LookupEnv(n)
			})
		}
	}
	return raw, nil
}

func joinList(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + string(os.PathListSeparator) + b
}
