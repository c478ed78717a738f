//go:build !dev

package main

// rulesTrustKey: release builds trust only the key built into
// backend/rulesupdate.
func rulesTrustKey() string { return "" }
