//go:build !windows

package launch

// AttachParentConsole is for Windows GUI programs; elsewhere a program
// started from a terminal already writes to it.
func AttachParentConsole() {}
