package shellenv

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
)

// Variables the window sets for its own toolkit, which children (panes,
// workers) must not inherit: a Bun-built agent CLI in a pane reads the
// same JavaScriptCore JSC_ variables the web view is tuned with.
var windowOnly struct {
	mu    sync.Mutex
	names []string
}

// SetForWindow sets name=value in the process's environment unless the
// person already set name (their choice wins), and keeps it out of
// Environ. Call it before the window toolkit starts any thread (see the
// package note); it reports whether it set the variable.
func SetForWindow(name, value string) (bool, error) {
	if _, ok := os.LookupEnv(name); ok {
		return false, nil
	}
	if err := os.Setenv(name, value); err != nil {
		return false, fmt.Errorf("setting %s for the window: %w", name, err)
	}
	windowOnly.mu.Lock()
	windowOnly.names = append(windowOnly.names, name)
	windowOnly.mu.Unlock()
	return true, nil
}

// withoutWindowOnly drops the window's own variables from env.
func withoutWindowOnly(env []string) []string {
	windowOnly.mu.Lock()
	names := windowOnly.names
	windowOnly.mu.Unlock()
	if len(names) == 0 {
		return env
	}
	return slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.ContainsFunc(names, func(n string) bool { return sameName(k, n) })
	})
}
