// Package crashtest holds the crash test of the Connected endpoint: a real
// `osfoundry serve` process killed with SIGKILL in the middle of
// refresh-token rotations must leave every token family rotated or not,
// never both nor neither. It has tests only.
package crashtest
