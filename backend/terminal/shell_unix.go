//go:build !windows

package terminal

const defaultShell = "/bin/sh"
