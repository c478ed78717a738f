// Package inventory lists the past sessions of other AI apps on this machine
// (Claude Code, Codex, Gemini CLI, …) by reading each app's own files,
// read-only, and plans a safe relaunch of one of them.
//
// Nothing here writes next to those files, opens their login files or goes
// over the network. Every value read from them is untrusted input.
package inventory

import (
	"path/filepath"
	"strings"
)

// AppID names one of the twelve known apps.
type AppID string

// The known apps, in the order the screen shows their chips.
const (
	ClaudeCode  AppID = "claude-code"
	ClaudeApp   AppID = "claude-app"
	CodexCLI    AppID = "codex-cli"
	CodexApp    AppID = "codex-app"
	GeminiCLI   AppID = "gemini-cli"
	QwenCode    AppID = "qwen-code"
	OpenCode    AppID = "opencode"
	CopilotCLI  AppID = "copilot-cli"
	Cursor      AppID = "cursor"
	Devin       AppID = "devin"
	Antigravity AppID = "antigravity"
	Kiro        AppID = "kiro"
)

// AllApps lists every known app in display order.
var AllApps = []AppID{ClaudeCode, ClaudeApp, CodexCLI, CodexApp, GeminiCLI, QwenCode,
	OpenCode, CopilotCLI, Cursor, Devin, Antigravity, Kiro}

var appNames = map[AppID]string{
	ClaudeCode: "Claude Code", ClaudeApp: "Claude app", CodexCLI: "Codex CLI", CodexApp: "Codex app",
	GeminiCLI: "Gemini CLI", QwenCode: "Qwen Code", OpenCode: "OpenCode", CopilotCLI: "Copilot CLI",
	Cursor: "Cursor", Devin: "Devin", Antigravity: "Antigravity", Kiro: "Kiro",
}

// Name is the app's display name ("Claude Code").
func (a AppID) Name() string {
	if n, ok := appNames[a]; ok {
		return n
	}
	return string(a)
}

// Known reports whether a is one of the twelve apps.
func (a AppID) Known() bool { _, ok := appNames[a]; return ok }

// Session is one past session as the list shows it. Every string field comes
// from another app's files and is untrusted.
type Session struct {
	Key        string `json:"key"` // app + ":" + id, unique in the list
	App        AppID  `json:"app"`
	AppName    string `json:"appName"`
	ID         string `json:"id"`
	Title      string `json:"title"`
	Folder     string `json:"folder"`     // recorded working directory, absolute
	FolderName string `json:"folderName"` // last path element, for the row
	Branch     string `json:"branch"`
	Model      string `json:"model,omitempty"`
	Effort     string `json:"effort,omitempty"`
	Mode       string `json:"mode,omitempty"`    // Claude permission mode or Codex approval policy
	Sandbox    string `json:"sandbox,omitempty"` // Codex sandbox mode
	Version    string `json:"version,omitempty"` // the app's version that wrote it
	// UpdatedMs is when the session was last used: the newest time the
	// session records (its last message, the store's own updated time);
	// the file's mtime only when it records none (TimeFrom says which).
	UpdatedMs int64  `json:"updatedMs"`
	TimeFrom  string `json:"timeFrom,omitempty"` // TimeRecorded or TimeFile
	Path      string `json:"path"`               // transcript file, or "<db>#<id>"
	Bytes     int64  `json:"bytes"`
	Archived  bool   `json:"archived,omitempty"`
	// ResumeID is what the app's CLI takes to resume; it differs from ID for
	// the Claude app, whose records point at a Claude Code session.
	ResumeID string `json:"resumeId,omitempty"`
	// OwnRun marks one of osFoundry's own runs (a Chat, Pipeline or
	// Verify worker ran the CLI headless, and the CLI kept the session in
	// its store like any other). RunWhy says how it was recognised;
	// RunTitle is the title the app knows the run by, when it does.
	OwnRun   bool   `json:"ownRun,omitempty"`
	RunWhy   string `json:"runWhy,omitempty"`
	RunTitle string `json:"runTitle,omitempty"`
	ChatID   string `json:"chatId,omitempty"` // the app's chat the run belongs to

	originator string // Codex: who started it (CLI or desktop app)
	priority   int    // when two readers report the same session, higher wins
	hay        string // lower-cased search text
}

func (s *Session) finish() {
	if s.AppName == "" {
		s.AppName = s.App.Name()
	}
	s.Key = string(s.App) + ":" + s.ID
	if s.Folder != "" {
		s.FolderName = filepath.Base(s.Folder)
	}
	if s.ResumeID == "" {
		s.ResumeID = s.ID
	}
	s.Title = cleanText(s.Title, 200)
	s.hay = strings.ToLower(strings.Join([]string{s.Title, s.Folder, s.Branch, s.AppName, string(s.App), s.ID}, "\x00"))
}

// Row kinds of a transcript page.
const (
	RowUser       = "user"
	RowAssistant  = "assistant"
	RowThinking   = "thinking"
	RowToolCall   = "tool_call"
	RowToolResult = "tool_result"
	RowSystem     = "system"
	RowSkipped    = "skipped"
)

// Row is one line of the conversation pane: a message, or one tool call, or
// one tool result, each on its own row.
type Row struct {
	Kind      string `json:"kind"`
	Name      string `json:"name,omitempty"` // tool name
	Text      string `json:"text"`
	Time      string `json:"time,omitempty"`
	IsError   bool   `json:"isError,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

// Page is a slice of a transcript. Next is the cursor for the following
// page (a byte offset for line-based files, a row number for databases);
// Done says there is nothing after it.
type Page struct {
	Rows []Row `json:"rows"`
	Next int64 `json:"next"`
	Done bool  `json:"done"`
}

// AppInfo is one entry of the Apps menu and of the chips row.
type AppInfo struct {
	App     AppID  `json:"app"`
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	Count   int    `json:"count"`
	OwnRuns int    `json:"ownRuns"` // how many of Count are osFoundry's own runs
}

// Detail is what the detail pane shows above the conversation.
type Detail struct {
	Session Session `json:"session"`
	Fields  []Field `json:"fields"` // recorded metadata, in display order
	// StaysInApp names what stays in the app's own window (the Codex app's
	// browser panel, the Claude app's artifacts, Cursor's editor); "" for
	// the CLIs.
	StaysInApp string `json:"staysInApp,omitempty"`
}

// Field is one recorded value ("Model", "claude-opus-4").
type Field struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// cleanText drops control characters (escape sequences, newlines) from an
// untrusted value shown in one line, and caps it at max runes.
func cleanText(s string, max int) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		if r == ' ' {
			if space || n == 0 {
				continue
			}
			space = true
		} else {
			space = false
		}
		if n >= max {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimRight(b.String(), " ")
}
