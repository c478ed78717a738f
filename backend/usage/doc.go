// Package usage tells the person how much of their Claude Code and Codex
// plans they have used, from the CLIs' own local files: Claude Code's
// session logs (~/.claude/projects/**/*.jsonl, the message.usage of
// assistant records) and Codex's rollouts (~/.codex/sessions/**/
// rollout-*.jsonl, the rate_limits of token_count events).
//
// It computes today's and this week's tokens, an estimated cost (prices.go;
// a subscription is not billed per token, so the figure says what the same
// tokens would cost on the API), the current 5-hour window the way ccusage
// computes its blocks, and the windows Codex itself reports. It reads
// files incrementally (a refresh reads only the bytes appended since the
// last one), never writes next to them, never opens the CLIs' login files
// and never uses the network.
package usage
