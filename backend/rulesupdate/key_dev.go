//go:build dev

package rulesupdate

import "os"

// buildKey: the dev build (browser end-to-end runs only, never packaged)
// may trust a test key pair's public half given in
// OSF_DEV_RULES_PUBLIC_KEY, so a spec can publish a bundle it signed.
// Only the window's binding asks; `osfoundry rules update` never does.
func buildKey() string { return os.Getenv("OSF_DEV_RULES_PUBLIC_KEY") }
