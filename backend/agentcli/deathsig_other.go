//go:build !linux && !windows

package agentcli

import "syscall"

// dieWithApp does nothing where the kernel has no parent-death signal
// (macOS): a CLI outlives an app killed mid-run there.
func dieWithApp(*syscall.SysProcAttr) {}
