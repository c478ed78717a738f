// Package rules holds the bundled agent-detection rule files. They are data,
// not code: a file can only say which screen patterns mean which state, and
// which process names or screen markers identify the agent. Nothing in a
// rules file can name a program to run.
package rules

import "embed"

// Files is every bundled <agent>.toml. A user override with the same name in
// ~/.osfoundry/agent-detection/ replaces the bundled file (see backend/detect).
//
//go:embed *.toml
var Files embed.FS
