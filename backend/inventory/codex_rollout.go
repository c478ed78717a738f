package inventory

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/osfoundry/desktop/backend/lazy"
)

// rolloutID is the thread id at the end of a rollout's file name
// (rollout-2025-05-07T17-24-21-<uuid>.jsonl).
var rolloutID = lazy.Regexp(`-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$`)

// readRollout reads a rollout's session_meta (first line), the first real
// user message (head) and the newest turn_context (tail).
//
// Two layouts exist on disk. Since about September 2025 every line is an
// envelope {"timestamp","type","payload"}. Before that the first line is the
// bare meta object {"id","timestamp","instructions","git"} (no cwd) and the
// rest are bare response items ({"type":"message",…}) between
// {"record_type":"state"} markers; the folder is then only in the
// <environment_context> of the first user message.
func readRollout(path string) (Session, bool, error) {
	s := Session{Path: path, priority: 1}
	f, st, err := openRegular(path)
	if err != nil {
		return s, false, err
	}
	defer f.Close()
	meta := false
	sub := false
	first := true
	items := false
	headless := false
	var prompt string
	err = readHead(f, HeadLines, func(line []byte) bool {
		if len(bytes.TrimSpace(line)) == 0 {
			return true
		}
		isFirst := first
		first = false
		typ, p := codexLine(line)
		items = items || typ == "response_item" || typ == "event_msg" || typ == "turn_context"
		switch typ {
		case "session_meta":
			if meta {
				// A forked rollout repeats its parent's meta after its own:
				// the first one names this thread.
				return s.Title == ""
			}
			meta = true
			s.ID = strField(p, "id")
			s.Folder = strField(p, "cwd")
			s.Version = strField(p, "cli_version")
			s.Branch = str(jpath(p, "git", "branch"))
			srcv := field(p, "source")
			sub = len(srcv) > 0 && srcv[0] == '{'
			s.originator = strField(p, "originator") + " " + str(srcv)
			headless = strField(p, "originator") == codexExecOriginator || str(srcv) == "exec"
		case "":
			if isFirst && strField(line, "record_type") == "" && strField(line, "id") != "" {
				meta = true // the bare meta line of the older layout
				s.ID = strField(line, "id")
				s.Branch = str(jpath(line, "git", "branch"))
			}
		case "event_msg":
			if s.Title == "" && strField(p, "type") == "user_message" {
				if t := codexPrompt(strField(p, "message")); t != "" {
					s.Title, prompt = cleanText(t, 80), t
				}
			}
		case "response_item":
			// Codex 0.169 writes no user_message event: the prompt is the
			// first user message item that is not injected context.
			if s.Title == "" && strField(p, "type") == "message" && strField(p, "role") == "user" {
				eachElem(field(p, "content"), func(b []byte) bool {
					t := strField(b, "text")
					if s.Folder == "" {
						envContext(&s, t)
					}
					if t = codexPrompt(t); t != "" {
						s.Title, prompt = cleanText(t, 80), t
						return false
					}
					return true
				})
			}
		case "turn_context":
			codexContext(&s, p)
		}
		return s.Title == ""
	})
	if err == nil && !meta && items {
		// The meta line was over the head's line cap (instructions with a
		// very long AGENTS.md) and was skipped unread: the file name holds
		// the thread id too.
		if m := rolloutID().FindStringSubmatch(filepath.Base(path)); m != nil {
			s.ID, meta = m[1], true
		}
	}
	if err != nil || !meta || sub || s.ID == "" {
		return s, false, err
	}
	markPromptRun(&s, headless, prompt, true)
	// Every line of the envelope layout carries its time and no line of the
	// older one does (its time is the file's): only the newest line is
	// looked at for one, not the whole tail window.
	ctx, newest := false, true
	err = readTailBackward(f, st.Size(), func(line []byte) bool {
		if newest {
			recordTime(&s.UpdatedMs, line)
			newest = false
		}
		if !ctx && strField(line, "type") == "turn_context" {
			codexContext(&s, field(line, "payload"))
			ctx = true
		}
		return !ctx
	})
	return s, true, err
}

// codexLine returns a rollout line's record type and payload, reading a
// bare response item of the older layout as a "response_item" and the bare
// meta line and {"record_type":"state"} markers as type "".
func codexLine(line []byte) (typ string, payload []byte) {
	var t, p []byte
	eachField(line, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			t = v
		case "payload":
			p = v
		}
		return t == nil || p == nil
	})
	typ = str(t)
	if p != nil || typ == "" {
		return typ, p
	}
	switch typ {
	case "session_meta", "event_msg", "turn_context", "compacted":
		return typ, p
	}
	return "response_item", line
}

// codexPrompt returns what the user typed from a user message's text, or ""
// for context Codex injects as user messages: <environment_context>,
// <user_instructions>, "# AGENTS.md instructions for …", skills. The IDE
// extensions prefix the prompt with "# Context from my IDE setup:" and put
// it after "## My request for Codex:".
func codexPrompt(t string) string {
	t = strings.TrimSpace(t)
	if strings.HasPrefix(t, "# Context from my IDE setup") {
		_, req, ok := strings.Cut(t, "## My request for Codex:")
		if !ok {
			return ""
		}
		t = strings.TrimSpace(req)
	}
	if t == "" || strings.HasPrefix(t, "<") || strings.HasPrefix(t, "# AGENTS.md instructions for ") {
		return ""
	}
	return t
}

// envContext reads the folder and the approval and sandbox modes from an
// <environment_context> block: older rollouts record them nowhere else.
func envContext(s *Session, t string) {
	if !strings.Contains(t, "<environment_context>") {
		return
	}
	fill(&s.Folder, between(t, "<cwd>", "</cwd>"))
	if v := between(t, "<approval_policy>", "</approval_policy>"); v != "" {
		fill(&s.Mode, kebab(v))
	}
	if v := between(t, "<sandbox_mode>", "</sandbox_mode>"); v != "" {
		fill(&s.Sandbox, sandboxMode(v))
	}
}

func codexContext(s *Session, p []byte) {
	if v := strField(p, "model"); v != "" {
		s.Model = v
	}
	if v := strField(p, "effort"); v != "" {
		s.Effort = v
	}
	if v := strField(p, "approval_policy"); v != "" {
		s.Mode = kebab(v)
	}
	if v := field(p, "sandbox_policy"); v != nil {
		if len(v) > 0 && v[0] == '"' {
			s.Sandbox = sandboxMode(str(v))
		} else {
			s.Sandbox = sandboxMode(string(v))
		}
	}
}
