package agentcli

import (
	"slices"
	"strings"
)

// Variables removed from the child's environment so a run started on the
// user's subscription can never fall over to API billing (docs/reference.md §3). The
// lists are explicit on purpose: the app never guesses from a prefix, and
// the test that starts a child printing its environment checks each name.
//
// Claude: the API key and bearer token switch Claude Code to API billing;
// the Bedrock/Vertex/Foundry switches and their keys route the run to a
// cloud account. ANTHROPIC_BASE_URL is kept: alone it bills nothing (a
// gateway the user chose still needs one of the removed credentials), and
// CLAUDE_CODE_OAUTH_TOKEN is kept because it IS the subscription login
// (`claude setup-token`).
var claudeScrub = []string{
	"ANTHROPIC_API_KEY",
	"ANTHROPIC_AUTH_TOKEN",
	"ANTHROPIC_FOUNDRY_API_KEY",
	"AWS_BEARER_TOKEN_BEDROCK",
	"CLAUDE_CODE_USE_BEDROCK",
	"CLAUDE_CODE_USE_VERTEX",
	"CLAUDE_CODE_USE_FOUNDRY",
}

// Codex: exactly the three of the spec. CODEX_API_KEY and OPENAI_API_KEY
// bill the API; OPENAI_BASE_URL would send the ChatGPT login elsewhere.
var codexScrub = []string{
	"CODEX_API_KEY",
	"OPENAI_API_KEY",
	"OPENAI_BASE_URL",
}

// ScrubList returns the variables removed for an agent.
func ScrubList(a Agent) []string {
	switch a {
	case Claude:
		return slices.Clone(claudeScrub)
	case Codex:
		return slices.Clone(codexScrub)
	}
	return nil
}

// ScrubEnv returns environ without the agent's billing variables. Names
// are compared exactly (Windows would need case folding; the app's
// children on Windows get the same list upper-cased by the OS anyway).
func ScrubEnv(a Agent, environ []string) []string {
	drop := ScrubList(a)
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(drop, name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// KeysInEnv lists which of the agent's billing variables are set (non-empty)
// in environ: the "API key in env" badge.
func KeysInEnv(a Agent, environ []string) []string {
	var found []string
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		if val != "" && slices.Contains(ScrubList(a), name) && !slices.Contains(found, name) {
			found = append(found, name)
		}
	}
	return found
}
