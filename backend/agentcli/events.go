package agentcli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// Event kinds a run reports while it works.
const (
	KindProgress = "progress" // a step: "Using memory_search — {…}", "Edited a.go"
	KindPartial  = "partial"  // a piece of answer text as it streams (Claude only)
	KindText     = "text"     // a whole assistant message
	KindRaw      = "raw"      // a line the decoder did not understand, kept as is
	KindError    = "error"    // the CLI reported an error
	KindSession  = "session"  // the CLI's session id (for "Continue here")
)

// Event is one thing a run reports as it happens.
type Event struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Usage is a run's token use. ContextTokens is the size of the context the
// model last saw: Codex's input_tokens excludes the cached part, so it is
// input + cached; Claude's is input + cache read + cache creation.
type Usage struct {
	InputTokens         int `json:"inputTokens"`
	CachedInputTokens   int `json:"cachedInputTokens"`
	CacheCreationTokens int `json:"cacheCreationTokens"`
	OutputTokens        int `json:"outputTokens"`
	ContextTokens       int `json:"contextTokens"`
}

// ModelUsage is Claude's per-model breakdown from the final result.
type ModelUsage struct {
	InputTokens         int     `json:"inputTokens"`
	OutputTokens        int     `json:"outputTokens"`
	CacheReadTokens     int     `json:"cacheReadInputTokens"`
	CacheCreationTokens int     `json:"cacheCreationInputTokens"`
	ReportedCostUSD     float64 `json:"costUSD"`
}

// Denial is a tool call the CLI refused (Claude's permission_denials).
type Denial struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input,omitempty"`
}

// Result is what a run produced.
type Result struct {
	RunID     string `json:"runId"`
	Agent     Agent  `json:"agent"`
	Model     string `json:"model"`     // the cli:* id
	CLIModel  string `json:"cliModel"`  // the model the CLI reported using
	SessionID string `json:"sessionId"` // for "Continue here"
	// Text is the final answer: the role's output.
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
	Usage   Usage  `json:"usage"`
	// CostUSD is always 0: runs on a subscription cost nothing extra.
	// ReportedCostUSD is what the CLI computed at API prices, for reference.
	CostUSD           float64               `json:"costUsd"`
	ReportedCostUSD   float64               `json:"reportedCostUsd"`
	ModelUsage        map[string]ModelUsage `json:"modelUsage,omitempty"`
	PermissionDenials []Denial              `json:"permissionDenials,omitempty"`
	NumTurns          int                   `json:"numTurns"`
	Progress          []string              `json:"progress"`
	// Errors the CLI reported in its stream (Codex error events, failed turns).
	Errors []string `json:"errors,omitempty"`
	// Worktree runs: the branch holding the run's changes and its diff.
	Branch     string        `json:"branch,omitempty"`
	Repo       string        `json:"repo,omitempty"`
	Diff       string        `json:"diff,omitempty"`
	DiffStat   string        `json:"diffStat,omitempty"`
	ExitCode   int           `json:"exitCode"`
	StderrTail string        `json:"stderrTail,omitempty"`
	Duration   time.Duration `json:"duration"`
}

// sink collects a decoder's output: it fills the Result and forwards
// events, capping raw lines so a CLI flooding stdout cannot flood the UI.
type sink struct {
	res    *Result
	folder string // paths under it are shown relative
	emit   func(Event)
	raw    int
	capped bool
}

// maxRawLines is how many unknown lines a run reports before saying the
// rest are hidden.
const maxRawLines = 200

// maxProgress bounds the progress lines kept on the Result.
const maxProgress = 2000

func (s *sink) send(kind, text string) {
	switch kind {
	case KindRaw:
		s.raw++
		if s.raw > maxRawLines {
			if !s.capped {
				s.capped = true
				s.send(KindProgress, "(the CLI printed more unrecognised lines; they are not shown)")
			}
			return
		}
		text = clip(text, 2000)
	case KindProgress, KindError:
		if len(s.res.Progress) < maxProgress {
			s.res.Progress = append(s.res.Progress, text)
		}
	}
	if s.emit != nil {
		s.emit(Event{Kind: kind, Text: text})
	}
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// toolName removes the bridge's MCP prefix so an app tool reads the same
// as with an API model.
func toolName(n string) string {
	if rest, ok := strings.CutPrefix(n, "mcp__osfoundry__"); ok {
		return rest
	}
	return n
}

// compactJSON renders arguments on one line, clipped for a progress line.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if len(raw) == 0 {
		return "{}"
	}
	if err := json.Compact(&b, raw); err != nil {
		return clip(strings.Join(strings.Fields(string(raw)), " "), 300)
	}
	return clip(b.String(), 300)
}

// rel shows a path relative to the run's folder when it is inside it.
func (s *sink) rel(p string) string {
	if s.folder == "" {
		return p
	}
	if r, err := filepath.Rel(s.folder, p); err == nil && !strings.HasPrefix(r, "..") && !filepath.IsAbs(r) {
		return filepath.ToSlash(r)
	}
	return p
}
