package panestate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/terminal"
)

// A pane started as an agent comes back after a restart as the same
// conversation: the agent reports which conversation runs in the pane
// (Claude Code through its SessionStart hook, Codex through its rollout
// file, see codex.go), the Manager remembers it with the pane, and a
// restore runs the agent's own resume of it. A pane started as a shell
// comes back as a shell, whatever ran in it.

// onSession records the conversation a Claude Code hook reported. A
// malformed payload is dropped.
func (w *Watcher) onSession(pane string, payload []byte) {
	var p struct {
		SessionID      string `json:"session_id"`
		TranscriptPath string `json:"transcript_path"`
	}
	if json.Unmarshal(payload, &p) != nil || !validSessionID(p.SessionID) {
		return
	}
	if err := w.mgr.SetSession(pane, terminal.Session{ID: p.SessionID, File: p.TranscriptPath}); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry: remembering the pane's conversation:", err)
	}
}

// validSessionID accepts the ids agents use (UUIDs, names of letters,
// digits, - and _): the id ends up as one argv word, never in a shell, but
// a word starting with - would read as a flag.
func validSessionID(id string) bool {
	if id == "" || len(id) > 128 || id[0] == '-' {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// agentOf names the agent a command starts ("" for a shell or any other
// program): the pane's own program, not what later ran in it.
func (w *Watcher) agentOf(argv []string) string {
	if len(argv) == 0 || detect.IsShell(argv[0]) {
		return ""
	}
	return w.cfg.Registry.IdentifyProcess(detect.Process{Name: filepath.Base(argv[0]), Argv: argv})
}

// resumePlan is the Manager's Resume: the command that reopens the
// conversation sp's agent reported, with why, or nil to run sp.Argv as it
// is (not an agent, no conversation yet, or its file is gone — then there
// is nothing to resume and a fresh start loses nothing; why says so).
func (w *Watcher) resumePlan(sp terminal.Spec, _ []string) ([]string, string) {
	s := sp.Session
	if !validSessionID(s.ID) {
		return nil, ""
	}
	agent := w.agentOf(sp.Argv)
	if agent == "" {
		return nil, ""
	}
	name := w.cfg.Registry.DisplayName(agent)
	if s.File != "" && !hasConversation(s.File) {
		return nil, fmt.Sprintf("Started a new %s conversation: the last one (%s) had no messages to resume", name, s.ID)
	}
	var argv []string
	switch agent {
	case "claude":
		argv = claudeResume(sp.Argv, s.ID)
	case "codex":
		argv = codexResume(sp.Argv, s.ID)
	}
	if argv == nil {
		return nil, ""
	}
	return argv, fmt.Sprintf("Resumed %s conversation %s", name, s.ID)
}

// hasConversation reports whether an agent's conversation file holds a
// message of the user: Claude Code names a session at start but writes its
// transcript as the conversation goes, and refuses to resume one without
// messages ("No conversation found"). Files past a megabyte are taken to
// hold one without reading them.
func hasConversation(file string) bool {
	st, err := os.Stat(file)
	if err != nil || st.IsDir() {
		return false
	}
	if st.Size() > 1<<20 {
		return true
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	return bytes.Contains(b, []byte(`"type":"user"`)) || bytes.Contains(b, []byte(`"type":"session_meta"`))
}

// flagSpec says how many words an option takes: 0, 1 ("<v>", or "[v]"
// when the next word is not an option) or all following non-options
// ("<v...>", as Commander parses variadic options).
type flagSpec int

const (
	noValue flagSpec = iota
	oneValue
	manyValues
)

// claudeFlags are Claude Code 2.1's options that take values (`claude
// --help`); any other option is taken to be a switch.
var claudeFlags = map[string]flagSpec{
	"--add-dir": manyValues, "--allowedTools": manyValues, "--allowed-tools": manyValues,
	"--disallowedTools": manyValues, "--disallowed-tools": manyValues, "--betas": manyValues,
	"--mcp-config": manyValues, "--file": manyValues, "--tools": manyValues,
	"--agent": oneValue, "--agents": oneValue, "--append-system-prompt": oneValue, "--append-system-prompt-file": oneValue,
	"--system-prompt": oneValue, "--system-prompt-file": oneValue, "--autocompact": oneValue, "--debug-file": oneValue,
	"--effort": oneValue, "--environment": oneValue, "--fallback-model": oneValue, "--input-format": oneValue,
	"--json-schema": oneValue, "--max-budget-usd": oneValue, "--model": oneValue, "-n": oneValue, "--name": oneValue,
	"--output-format": oneValue, "--permission-mode": oneValue, "--permission-prompts": oneValue,
	"--permission-prompt-tool": oneValue, "--plugin-dir": oneValue, "--plugin-url": oneValue,
	"--remote-control-session-name-prefix": oneValue, "--settings": oneValue, "--setting-sources": oneValue,
	"--max-turns": oneValue, "-d": oneValue, "--debug": oneValue, "--prompt-suggestions": oneValue,
	"--remote-control": oneValue, "--cloud": oneValue,
	// Which conversation to open: replaced by the one the pane reported.
	"--session-id": oneValue, "-r": oneValue, "--resume": oneValue, "--from-pr": oneValue,
}

// claudeDropped pick a conversation or make the run non-interactive.
var claudeDropped = map[string]bool{"-r": true, "--resume": true, "-c": true, "--continue": true,
	"--session-id": true, "--fork-session": true, "--from-pr": true}

// claudeResume is argv with the conversation chosen by `--resume id`: the
// options that picked another conversation and the initial prompt (it was
// sent already) left out, every other option kept. nil for a run that is
// not an interactive conversation (--print, no session persistence).
func claudeResume(argv []string, id string) []string {
	out := []string{argv[0]}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		name, _, inline := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue // the initial prompt
		}
		if a == "--" {
			break // everything after is the prompt
		}
		if name == "-p" || name == "--print" || name == "--no-session-persistence" || name == "--bg" || name == "--background" {
			return nil
		}
		words := []string{a}
		if !inline {
			switch claudeFlags[name] {
			case oneValue:
				if i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
					i++
					words = append(words, argv[i])
				}
			case manyValues:
				for i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
					i++
					words = append(words, argv[i])
				}
			}
		}
		if !claudeDropped[name] {
			out = append(out, words...)
		}
	}
	return append(out, "--resume", id)
}

// codexFlags are Codex 0.169's options that take a value (`codex --help`).
var codexFlags = map[string]flagSpec{
	"-c": oneValue, "--config": oneValue, "-m": oneValue, "--model": oneValue, "-p": oneValue, "--profile": oneValue,
	"-s": oneValue, "--sandbox": oneValue, "-a": oneValue, "--ask-for-approval": oneValue, "-C": oneValue, "--cd": oneValue,
	"--enable": oneValue, "--disable": oneValue, "--local-provider": oneValue, "--add-dir": oneValue,
	"--remote": oneValue, "--remote-auth-token-env": oneValue, "-i": manyValues, "--image": manyValues,
}

// codexCommands are Codex 0.169's subcommands (`codex --help`); a first
// word that is none of them is the initial prompt.
var codexCommands = map[string]bool{"agents": true, "exec": true, "e": true, "review": true, "login": true,
	"logout": true, "mcp": true, "plugin": true, "app-server": true, "remote-control": true, "completion": true,
	"update": true, "doctor": true, "sandbox": true, "debug": true, "apply": true, "a": true, "resume": true,
	"queue": true, "archive": true, "delete": true, "migrate-rollouts": true, "migrate-nfs-db": true,
	"unarchive": true, "fork": true, "cloud": true, "exec-server": true, "features": true, "help": true}

// codexDropped choose another conversation or attach to the first prompt.
var codexDropped = map[string]bool{"--last": true, "--all": true, "-i": true, "--image": true}

// codexResume is `codex resume id` with the pane's options: the initial
// prompt (sent already) and options choosing another conversation left
// out. nil for a run of another subcommand (exec, review, login, …).
func codexResume(argv []string, id string) []string {
	var opts []string
	sub := ""
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			if sub == "" && i == firstWord(argv) && codexCommands[a] {
				sub = a
				if sub != "resume" {
					return nil
				}
			}
			continue // the prompt, or the session a resume named
		}
		name, _, inline := strings.Cut(a, "=")
		words := []string{a}
		if !inline {
			switch codexFlags[name] {
			case oneValue:
				if i+1 < len(argv) {
					i++
					words = append(words, argv[i])
				}
			case manyValues:
				for i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
					i++
					words = append(words, argv[i])
				}
			}
		}
		if !codexDropped[name] {
			opts = append(opts, words...)
		}
	}
	return append([]string{argv[0], "resume", id}, opts...)
}

// firstWord is the index of codex's first non-option word (a subcommand
// or the prompt), skipping option values.
func firstWord(argv []string) int {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") {
			return i
		}
		if name, _, inline := strings.Cut(a, "="); !inline && codexFlags[name] == oneValue {
			i++
		}
	}
	return -1
}
