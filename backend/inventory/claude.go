package inventory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// claudeCode reads ~/.claude/projects/<escaped cwd>/<session id>.jsonl.
// The folder name is the cwd with every non-alphanumeric character replaced
// by '-' (and cut at 200 characters plus a hash): it loses information, so
// the cwd always comes from the records, never from the folder name.
type claudeCode struct{}

func (claudeCode) Apps() []AppID { return []AppID{ClaudeCode} }

// claudeProjectRoots are the folders Claude Code keeps transcripts in:
// CLAUDE_CONFIG_DIR/projects when set; otherwise ~/.claude/projects and
// the XDG one (~/.config/claude/projects), where some 1.0.x releases wrote
// them — a machine can hold sessions in both.
func claudeProjectRoots(env Env) []string {
	if v := env.getenv("CLAUDE_CONFIG_DIR"); v != "" {
		return []string{filepath.Join(v, "projects")}
	}
	xdg := env.getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(env.Home, ".config")
	}
	return []string{filepath.Join(env.Home, ".claude", "projects"), filepath.Join(xdg, "claude", "projects")}
}

// claudeProjectDirs lists the project folders of every root.
func claudeProjectDirs(env Env) []string {
	var dirs []string
	for _, root := range claudeProjectRoots(env) {
		dirs = append(dirs, listDirs(root)...)
	}
	return dirs
}

func (claudeCode) Roots(env Env) []string { return claudeProjectRoots(env) }

func (claudeCode) Units(ctx context.Context, env Env) ([]Unit, error) {
	// Only files directly in the project folders: sub-agent transcripts
	// live in <id>/subagents/ and also start with "agent-".
	return listFilesIn(ctx, claudeProjectDirs(env), claudeKeep)
}

func (claudeCode) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	s, err := readClaudeTranscript(u.Path)
	if errors.Is(err, errNoConversation) {
		return nil, nil // only summaries or snapshots: nothing to resume
	}
	if err != nil {
		return nil, err
	}
	s.App = ClaudeCode
	s.ID = strings.TrimSuffix(filepath.Base(u.Path), ".jsonl")
	setTime(&s, s.UpdatedMs, u.MtimeNs)
	s.Bytes = u.Size
	return []Session{s}, nil
}

// errNoConversation marks a transcript without a single user or assistant
// record: older versions leave files holding only "summary" lines (one per
// conversation leaf) or file-history snapshots, which no CLI can resume.
var errNoConversation = errors.New("no conversation records")

// claudeMeta is what the index wants from one Claude Code record.
type claudeMeta struct {
	typ, cwd, branch, title, mode, model, effort, version, summary string
	entry                                                          string // "cli", "sdk-cli" (-p), …
	// sidechain: a sub-agent's record (older versions wrote them into the
	// parent's file); meta: a harness message shown to the model only
	// ("Caveat: The messages below were generated…"); compact: the summary
	// a compaction put in place of the earlier conversation.
	sidechain, meta, compact bool
	message                  []byte
}

func parseClaudeRecord(line []byte) (m claudeMeta, ok bool) {
	ok = eachField(line, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			m.typ = str(v)
		case "cwd":
			m.cwd = str(v)
		case "gitBranch":
			m.branch = str(v)
		case "customTitle", "aiTitle":
			m.title = str(v)
		case "permissionMode":
			m.mode = str(v)
		case "isSidechain":
			m.sidechain = isTrue(v)
		case "isMeta":
			m.meta = isTrue(v)
		case "isCompactSummary":
			m.compact = isTrue(v)
		case "summary":
			m.summary = str(v) // a string only on type "summary" records
		case "effort":
			m.effort = str(v)
		case "version":
			m.version = str(v)
		case "entrypoint":
			m.entry = str(v)
		case "message":
			m.message = v
		}
		return true
	})
	return m, ok
}

// readClaudeTranscript fills folder, branch, title, model, effort and mode
// from the head (first 80 lines) and the tail (last 512 KiB) of a
// transcript, the time of its newest record (UpdatedMs, 0 if none has one)
// and whether it is one of osFoundry's own runs.
func readClaudeTranscript(path string) (Session, error) {
	var s Session
	f, st, err := openRegular(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	s.Path = path
	var headTitle, firstUser, firstPrompt, entry, summary string
	conv := false
	err = readHead(f, HeadLines, func(line []byte) bool {
		m, ok := parseClaudeRecord(line)
		if !ok {
			return true // a torn or garbage line
		}
		if m.typ == "user" || m.typ == "assistant" {
			conv = true
		}
		if m.typ == "summary" && summary == "" {
			summary = m.summary
		}
		if s.Folder == "" && m.cwd != "" {
			s.Folder = m.cwd
		}
		if s.Branch == "" && m.branch != "" {
			s.Branch = m.branch
		}
		if m.title != "" {
			headTitle = m.title // newest in the head wins
		}
		if s.Version == "" {
			s.Version = m.version
		}
		if firstUser == "" && m.typ == "user" && !m.sidechain && !m.meta && !m.compact && m.message != nil {
			if t := strings.TrimSpace(firstText(field(m.message, "content"))); isPrompt(t) {
				firstUser = cleanText(t, 80)
				firstPrompt, entry = t, m.entry
			}
		}
		// Stop early once the head has given everything it can; the title
		// record may sit before the cwd (measured on Claude Code 2.1.328).
		return s.Folder == "" || s.Branch == "" || firstUser == ""
	})
	if err != nil {
		return s, err
	}
	var tailTitle, tailBranch string
	var lastMs int64
	haveModel, haveMode, haveEffort := false, false, false
	err = readTailBackward(f, st.Size(), func(line []byte) bool {
		m, ok := parseClaudeRecord(line)
		if !ok {
			return true
		}
		recordTime(&lastMs, line)
		if m.typ == "user" || m.typ == "assistant" {
			conv = true
		}
		if s.Folder == "" && m.cwd != "" {
			// The head held no cwd: older versions can pile up more than
			// HeadLines summary lines before the first conversation record.
			s.Folder = m.cwd
		}
		if tailTitle == "" && m.title != "" {
			tailTitle = m.title
		}
		if tailBranch == "" && m.branch != "" {
			tailBranch = m.branch
		}
		if !haveMode && m.mode != "" {
			s.Mode, haveMode = m.mode, true
		}
		if m.typ == "assistant" {
			if !haveModel && m.message != nil {
				if mod := strField(m.message, "model"); mod != "" && mod != "<synthetic>" {
					s.Model, haveModel = mod, true
				}
			}
			if !haveEffort && m.effort != "" {
				s.Effort, haveEffort = m.effort, true
			}
		}
		return tailTitle == "" || tailBranch == "" || !haveModel || !haveMode || !haveEffort || s.Folder == "" || lastMs == 0
	})
	if err != nil {
		return s, err
	}
	if !conv {
		return s, errNoConversation
	}
	switch {
	case tailTitle != "":
		s.Title = tailTitle
	case headTitle != "":
		s.Title = headTitle
	case firstUser != "":
		s.Title = firstUser
	default:
		s.Title = summary // versions before titles wrote a "summary" line
	}
	if tailBranch != "" {
		s.Branch = tailBranch
	}
	s.UpdatedMs = lastMs
	if s.Title == firstUser {
		markPromptRun(&s, entry == claudeHeadlessEntry, firstPrompt, false)
	} else {
		title := s.Title
		markPromptRun(&s, entry == claudeHeadlessEntry, firstPrompt, false)
		s.Title = title // a title record names it better than the prompt
	}
	return s, nil
}

// isPrompt reports whether a user message's text is something the user
// typed: not empty, not harness markup (<command-name>, <local-command-…>,
// <system-reminder>), not the local-command caveat older versions wrote
// without isMeta, and not an interruption notice.
func isPrompt(t string) bool {
	return t != "" && !strings.HasPrefix(t, "<") && !strings.HasPrefix(t, "Caveat: The messages below") &&
		!strings.HasPrefix(t, "[Request interrupted")
}

// firstText returns a message content's text: the string itself, or the
// first text block of a block list.
func firstText(content []byte) string {
	if len(content) > 0 && content[0] == '"' {
		return str(content)
	}
	var out string
	eachElem(content, func(b []byte) bool {
		if strField(b, "type") == "text" {
			out = strField(b, "text")
			return out == ""
		}
		return true
	})
	return out
}

func (claudeCode) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	return readJSONLPage(ctx, s.Path, cursor, limit, claudeRows)
}

// claudeRows turns one Claude Code record into rows: each text, thinking,
// tool_use and tool_result block becomes its own row.
func claudeRows(line []byte) []Row {
	m, ok := parseClaudeRecord(line)
	if !ok {
		return []Row{{Kind: RowSkipped, Text: "[unreadable line]"}}
	}
	ts := strField(line, "timestamp")
	switch m.typ {
	case "user", "assistant":
	case "custom-title", "ai-title":
		return []Row{{Kind: RowSystem, Text: "Title: " + m.title, Time: ts}}
	case "summary":
		if m.summary != "" {
			return []Row{{Kind: RowSystem, Text: "Summary: " + cleanText(m.summary, 200), Time: ts}}
		}
		return nil
	case "system":
		// compact_boundary, local_command, api_error, informational, …
		if c := localCommandText(strField(line, "content")); c != "" {
			return []Row{textRow(RowSystem, c, ts)}
		}
		return nil
	default:
		// file-history-snapshot, queue-operation, mode, progress and any
		// record type a newer version adds: not part of the conversation.
		return nil
	}
	role := RowUser
	if m.typ == "assistant" {
		role = RowAssistant
	} else if m.meta || m.compact {
		role = RowSystem // written by the harness, not typed by the user
	}
	content := field(m.message, "content")
	if len(content) > 0 && content[0] == '"' {
		return []Row{textRow(role, str(content), ts)}
	}
	var rows []Row
	eachElem(content, func(b []byte) bool {
		switch strField(b, "type") {
		case "text":
			rows = append(rows, textRow(role, strField(b, "text"), ts))
		case "thinking":
			rows = append(rows, textRow(RowThinking, strField(b, "thinking"), ts))
		case "redacted_thinking":
			rows = append(rows, Row{Kind: RowThinking, Text: "[redacted thinking]", Time: ts})
		case "tool_use":
			r := textRow(RowToolCall, string(field(b, "input")), ts)
			r.Name = strField(b, "name")
			rows = append(rows, r)
		case "tool_result":
			r := textRow(RowToolResult, blocksText(field(b, "content")), ts)
			r.IsError = isTrue(field(b, "is_error"))
			rows = append(rows, r)
		case "image":
			rows = append(rows, Row{Kind: role, Text: "[image]", Time: ts})
		case "document":
			rows = append(rows, Row{Kind: role, Text: "[document]", Time: ts})
		}
		return true
	})
	return rows
}

// localCommandText turns a slash command record ("<command-name>/model
// </command-name>…<command-args>opus</command-args>") or its output
// ("<local-command-stdout>…</local-command-stdout>") into plain text; other
// system text passes unchanged.
func localCommandText(c string) string {
	if !strings.HasPrefix(strings.TrimSpace(c), "<") {
		return c
	}
	if name := between(c, "<command-name>", "</command-name>"); name != "" {
		return strings.TrimSpace(name + " " + between(c, "<command-args>", "</command-args>"))
	}
	for _, tag := range []string{"local-command-stdout", "local-command-stderr"} {
		if _, rest, ok := strings.Cut(c, "<"+tag+">"); ok {
			out, _, _ := strings.Cut(rest, "</"+tag+">")
			return strings.TrimSpace(out)
		}
	}
	return c
}

// between returns the text between the first open and the following close.
func between(s, open, close string) string {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, close)
	return strings.TrimSpace(v)
}

// blocksText flattens a string or a list of text blocks.
func blocksText(v []byte) string {
	if len(v) > 0 && v[0] == '"' {
		return str(v)
	}
	var parts []string
	eachElem(v, func(b []byte) bool {
		if t := strField(b, "text"); t != "" {
			parts = append(parts, t)
		} else if strField(b, "type") == "image" {
			parts = append(parts, "[image]")
		}
		return true
	})
	if len(parts) == 0 && len(v) > 0 && v[0] != '[' {
		return string(v)
	}
	return strings.Join(parts, "\n")
}

// rowTextCap bounds one row's text; the pane shows the rest as truncated.
const rowTextCap = 32 << 10

func textRow(kind, text, ts string) Row {
	r := Row{Kind: kind, Text: text, Time: ts}
	if len(r.Text) > rowTextCap {
		r.Text = strings.ToValidUTF8(r.Text[:rowTextCap], "")
		r.Truncated = true
	}
	return r
}

// fileExists is a stat that treats every error as absence.
func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
