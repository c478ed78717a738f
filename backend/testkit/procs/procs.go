// Package procs answers, for tests, whether a process is still alive: the
// check that a cancelled run or a closed pane left nothing behind.
package procs
