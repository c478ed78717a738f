//go:build !dev

package rulesupdate

// buildKey: release builds trust only ProductionPublicKey ("" tells
// NewBinding to use it).
func buildKey() string { return "" }
