package acp

import "syscall"

// dieWithClient has the kernel end the adapter when the client dies without
// ending it (the pane closed with SIGHUP, a SIGKILL): the adapter is in its
// own group, so the pane's hangup does not reach it otherwise.
func dieWithClient(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
