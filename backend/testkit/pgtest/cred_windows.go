package pgtest

import "os/exec"

// credential: Windows has no root to step down from; the server runs as
// the user running the tests.
type credential struct{}

func newCredential(int, int) *credential { return nil }

func runAs(*exec.Cmd, *credential) {}
