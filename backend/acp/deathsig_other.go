//go:build !linux && !windows

package acp

import "syscall"

// dieWithClient: no parent-death signal here; the adapter ends when its
// input closes with the client.
func dieWithClient(*syscall.SysProcAttr) {}
