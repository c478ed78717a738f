// Package testkit groups the test drivers that run the real agent CLIs
// offline (README.md lists them): a scripted model API, a fake MCP server,
// agent environments with a temporary home, TUI recorders and the
// recorded captures. Only tests and cmd/osfoundry-bench import them;
// build/scripts/check-shipped-deps.sh fails the build when a shipped
// binary does.
package testkit
