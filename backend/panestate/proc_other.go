//go:build !linux

package panestate

// procArgv is unavailable here: the foreground name and the screen identify
// the agent.
func procArgv(int) []string { return nil }

// openFiles cannot see other processes' open files here: the caller
// matches rollouts by folder and time instead.
func openFiles(int, string) ([]string, bool) { return nil, false }
