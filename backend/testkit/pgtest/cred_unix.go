//go:build !windows

package pgtest

import (
	"os/exec"
	"syscall"
)

// credential is the user the server's programs run as when the tests run
// as root (initdb refuses root).
type credential = syscall.Credential

func newCredential(uid, gid int) *credential {
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

func runAs(cmd *exec.Cmd, c *credential) { cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c} }
