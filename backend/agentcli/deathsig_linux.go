package agentcli

import "syscall"

// dieWithApp has the kernel kill the CLI when the app dies without ending
// it (SIGKILL, a crash): an agent left working in a run's folder would race
// the restart that records the run as interrupted and keeps its worktree's
// changes. Go never ends the thread that forked it while the app runs
// (threads end only with a locked goroutine, and none of those start runs).
func dieWithApp(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
