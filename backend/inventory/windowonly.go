package inventory

// What stays in a desktop app's own window. A session resumed in a
// terminal (or read here) carries its conversation only: these features
// live in the app's window, are at most named in the session's file, and
// never come over.
var windowOnly = map[AppID]string{
	CodexApp:  "The Codex app's browser panel and review screen stay in the Codex app: Open in Terminal brings the conversation only, where they appear by name.",
	ClaudeApp: "The Claude app's connectors and artifacts stay in the Claude app: Open in Terminal brings the conversation only, where they appear by name.",
	Cursor:    "Cursor's editor stays in Cursor, and Cursor has no command that resumes a session in a terminal: read the conversation here, and open it in Cursor to continue it.",
}

// StaysInApp says what of a session stays in its app's own window, or ""
// for an app whose sessions are wholly in its files (the CLIs).
func StaysInApp(app AppID) string { return windowOnly[app] }
