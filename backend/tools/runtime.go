package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PaneInfo describes one terminal pane for runtime_list.
type PaneInfo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Agent string `json:"agent,omitempty"` // detected agent ("claude", "codex", …)
	State string `json:"state"`           // idle, working, blocked, paused or exited; informational
	Cwd   string `json:"cwd,omitempty"`
}

// Panes is the live-screen surface the runtime_* tools drive. The terminal
// service implements it.
type Panes interface {
	List() []PaneInfo
	// Screen returns the pane's visible lines now (not a cached sweep) and
	// the last known state. Unknown ids return ErrNoPane.
	Screen(id string) (lines []string, state string, err error)
	// Send writes text to the pane's input as if typed; with enter, it
	// presses Enter once the pane shows the text, as a person does.
	Send(id, text string, enter bool) error
}

// ErrNoPane is returned by Panes for an id that names no open pane.
var ErrNoPane = errors.New("no such pane")

// BlockedFunc reports whether a screen shows an agent waiting for a
// decision (a permission prompt, a yes/no menu). The detect package
// provides it from the agent rules.
type BlockedFunc func(lines []string) bool

// Keys runtime_answer may press besides plain text.
var answerKeys = map[string]string{
	"enter": "\r", "escape": "\x1b", "tab": "\t",
	"up": "\x1b[A", "down": "\x1b[B", "left": "\x1b[D", "right": "\x1b[C",
}

// RuntimeTools returns runtime_list, runtime_read, runtime_send and
// runtime_answer. blocked is required: without it runtime_send could type
// into a pending decision.
func RuntimeTools(p Panes, blocked BlockedFunc) ([]Tool, error) {
	if p == nil || blocked == nil {
		return nil, errors.New("building the live-screen tools: panes and a blocked-screen detector are both required")
	}
	paneArg := `"id":{"type":"string","description":"pane id from runtime_list"}`
	return []Tool{
		{
			Meta: Meta{
				Name: "runtime_list", Description: "List the user's open terminal panes with the agent running in each and its state.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
				ReadOnly:    true, Scope: ScopeRead, Unattended: true,
			},
			Handler: func(ctx context.Context, c Call) (Result, error) {
				list := p.List()
				if list == nil {
					list = []PaneInfo{}
				}
				return JSONResult(map[string]any{"panes": list}), nil
			},
		},
		{
			Meta: Meta{
				Name: "runtime_read", Description: "Read the current screen of a terminal pane.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{` + paneArg +
					`,"lines":{"type":"integer","minimum":1,"maximum":500,"description":"last N lines; default all"}},"required":["id"]}`),
				ReadOnly: true, Scope: ScopeRead, Unattended: true,
			},
			Handler: func(ctx context.Context, c Call) (Result, error) {
				var a struct {
					ID    string `json:"id"`
					Lines int    `json:"lines"`
				}
				if msg := decodeArgs(c.Args, &a); msg != "" {
					return ErrorResult(msg), nil
				}
				lines, state, err := p.Screen(a.ID)
				if err != nil {
					return paneError(a.ID, err), nil
				}
				waiting := blocked(lines) // on the whole screen, before trimming
				if a.Lines > 0 && a.Lines < len(lines) {
					lines = lines[len(lines)-a.Lines:]
				}
				return JSONResult(map[string]any{"id": a.ID, "state": state, "blocked": waiting, "screen": strings.Join(lines, "\n")}), nil
			},
		},
		{
			Meta: Meta{
				Name: "runtime_send", Description: "Type text into a terminal pane (asks the user first). Refused while the pane waits for a decision: use runtime_answer for that.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{` + paneArg +
					`,"text":{"type":"string"},"enter":{"type":"boolean","description":"press Enter after the text; default true"}},"required":["id","text"]}`),
				Scope: ScopeRun, NeedsApproval: true,
			},
			Handler: func(ctx context.Context, c Call) (Result, error) {
				var a struct {
					ID    string `json:"id"`
					Text  string `json:"text"`
					Enter *bool  `json:"enter"`
				}
				if msg := decodeArgs(c.Args, &a); msg != "" {
					return ErrorResult(msg), nil
				}
				if msg := plainText(a.Text, 8000); msg != "" {
					return ErrorResult(msg), nil
				}
				// Re-read the screen at the moment of typing: the last sweep may
				// be up to a sweep old and the approval wait may have been long.
				lines, _, err := p.Screen(a.ID)
				if err != nil {
					return paneError(a.ID, err), nil
				}
				if blocked(lines) {
					return ErrorResult(fmt.Sprintf("pane %s is waiting for a decision, so nothing was typed; answer it with runtime_answer (the user confirms each answer)", a.ID)), nil
				}
				if err := p.Send(a.ID, a.Text, a.Enter == nil || *a.Enter); err != nil {
					return paneError(a.ID, err), nil
				}
				return Result{Text: fmt.Sprintf("typed %d characters into pane %s", utf8.RuneCountInString(a.Text), a.ID)}, nil
			},
		},
		{
			Meta: Meta{
				Name: "runtime_answer", Description: "Answer the decision a terminal pane is waiting for (a permission prompt or menu). The user confirms every answer.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{` + paneArg +
					`,"answer":{"type":"string","description":"text to type, e.g. 1 or y"},` +
					`"key":{"type":"string","enum":["enter","escape","tab","up","down","left","right"],"description":"a key to press after the answer"}},"required":["id"]}`),
				Scope: ScopeRun, NeedsApproval: true,
			},
			Handler: func(ctx context.Context, c Call) (Result, error) {
				var a struct {
					ID     string `json:"id"`
					Answer string `json:"answer"`
					Key    string `json:"key"`
				}
				if msg := decodeArgs(c.Args, &a); msg != "" {
					return ErrorResult(msg), nil
				}
				key, ok := answerKeys[a.Key]
				if a.Key != "" && !ok {
					return ErrorResult("unknown key " + a.Key + "; use enter, escape, tab, up, down, left or right"), nil
				}
				if a.Answer == "" && key == "" {
					return ErrorResult("pass an answer, a key, or both"), nil
				}
				if a.Answer != "" && (plainText(a.Answer, 200) != "" || strings.ContainsAny(a.Answer, "\n\t")) {
					return ErrorResult("answer must be one short line of plain text; use key for enter, escape or arrows"), nil
				}
				lines, _, err := p.Screen(a.ID)
				if err != nil {
					return paneError(a.ID, err), nil
				}
				if !blocked(lines) {
					return ErrorResult(fmt.Sprintf("pane %s is not waiting for a decision now, so nothing was typed; read it again with runtime_read", a.ID)), nil
				}
				// A menu takes a one-key choice and its key in one write; a
				// reply typed into a free-text field gets its Enter once the
				// field shows it, or a long one is read as a paste.
				if key == "\r" && utf8.RuneCountInString(a.Answer) > 1 {
					err = p.Send(a.ID, a.Answer, true)
				} else {
					err = p.Send(a.ID, a.Answer+key, false)
				}
				if err != nil {
					return paneError(a.ID, err), nil
				}
				return Result{Text: fmt.Sprintf("answered pane %s", a.ID)}, nil
			},
		},
	}, nil
}

func paneError(id string, err error) Result {
	if errors.Is(err, ErrNoPane) {
		return ErrorResult(fmt.Sprintf("no open pane with id %q; call runtime_list for the current ids", id))
	}
	return ErrorResult(fmt.Sprintf("pane %s: %v", id, err))
}

// plainText refuses control characters (escape sequences could drive the
// TUI in ways the user never approved); tab and newline are allowed.
func plainText(s string, max int) string {
	if s == "" {
		return "text is empty"
	}
	if utf8.RuneCountInString(s) > max {
		return fmt.Sprintf("text is longer than %d characters", max)
	}
	for _, r := range s {
		if r == '\t' || r == '\n' {
			continue
		}
		if unicode.IsControl(r) {
			return "text contains control characters; runtime tools type plain text only"
		}
	}
	return ""
}
