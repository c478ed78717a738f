//go:build !linux

package panestate

// procArgv is unavailable here: the foreground name and the screen identify
// the agent.
func procArgv(int) []string { return nil }
