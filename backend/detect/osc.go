package detect

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Program Status Protocol (OSC 7501). Claude Code sends ProbeQuery at start
// and reports its state only when the terminal answers with ProbeAnswer;
// Codex reports on its own.
const (
	OSCStatus   = 7501
	ProbeQuery  = "\x1b]7501;?\x07"
	ProbeAnswer = "\x1b]7501;?\x1b\\"
)

// Limits that keep a flood or a hostile payload cheap and harmless.
const (
	maxOSCPayload = 8 << 10
	maxMessage    = 300 // runes of prompt summary shown on a card
)

// ErrProbe is returned by ParseOSC7501 for the probe "?": the pane should
// answer with ProbeAnswer, it is not a report.
var ErrProbe = errors.New("osc 7501 probe")

// ParseOSC7501 reads the payload of `ESC ] 7501 ; <payload> BEL|ST`, e.g.
// "state=blocked:app=codex:kind=permission" or
// "state=blocked:app=claude-code:kind=permission:msg=<base64>".
// done (as state or kind) means the turn finished: idle; error means the
// turn failed and the agent waits: idle too; clear withdraws the report
// (Claude Code sends it when it exits).
// Unknown fields are ignored so newer agents keep working.
func ParseOSC7501(payload string) (Signal, error) {
	if payload == "?" {
		return Signal{}, ErrProbe
	}
	if len(payload) > maxOSCPayload {
		return Signal{}, fmt.Errorf("osc 7501 payload of %d bytes is over the %d byte limit", len(payload), maxOSCPayload)
	}
	s := Signal{Source: FromOSC}
	var rawState string
	for _, field := range strings.Split(payload, ":") {
		k, v, ok := strings.Cut(field, "=")
		if !ok {
			continue
		}
		switch k {
		case "state":
			rawState = v
		case "app":
			s.App = sanitize(v, 40)
		case "kind":
			s.Kind = sanitize(v, 40)
		case "msg":
			s.Message = decodeMessage(v)
		}
	}
	// Claude Code 2.1.328 sends "state=done" and "state=clear"; the
	// protocol's other form puts them in kind. Both mean the same.
	switch {
	case rawState == "done" || s.Kind == "done":
		s.State, s.Kind = Idle, "done"
		return s, nil
	case rawState == "clear" || s.Kind == "clear":
		s.Clear, s.Kind = true, "clear"
		return s, nil
	case rawState == "error":
		// Codex 0.169 sends "state=error" when a turn fails (its provider's
		// key unset, the provider unreachable) and then waits for the next
		// prompt. Refusing the report left its "working" standing until the
		// pane closed (codex-0.169.0.idle.failed-start).
		s.State, s.Kind = Idle, "error"
		return s, nil
	}
	st, ok := parseState(rawState)
	if !ok {
		return Signal{}, fmt.Errorf("osc 7501 state %q is not idle, working or blocked", sanitize(rawState, 40))
	}
	s.State = st
	return s, nil
}

func decodeMessage(v string) string {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(v); err == nil {
			return sanitize(string(b), maxMessage)
		}
	}
	return ""
}

// sanitize keeps printable text only (no escape sequences can reach a card
// or a notification) and bounds it.
func sanitize(s string, maxRunes int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "�")
	}
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if !unicode.IsPrint(r) {
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		if n >= maxRunes {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// HookReport is `osfoundry pane report working|done` as a signal.
func HookReport(arg string) (Signal, error) {
	switch arg {
	case "working":
		return Signal{Source: FromHook, State: Working, Kind: "working", App: "claude-code"}, nil
	case "done":
		return Signal{Source: FromHook, State: Idle, Kind: "done", App: "claude-code"}, nil
	}
	return Signal{}, fmt.Errorf("pane report %q: use working or done", arg)
}

// HookNotification reads the JSON payload Claude Code passes to its
// Notification hook on stdin: a permission request means blocked, anything
// else (e.g. "waiting for your input" after 60 s) means idle. The same
// helper serves the PermissionRequest hook, whose payload names the tool
// instead of carrying a message: always blocked.
func HookNotification(payload []byte) (Signal, error) {
	var p struct {
		Message          string `json:"message"`
		NotificationType string `json:"notification_type"`
		HookEventName    string `json:"hook_event_name"`
		ToolName         string `json:"tool_name"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return Signal{}, fmt.Errorf("reading the Notification hook payload (JSON on stdin): %w", err)
	}
	if p.HookEventName == "PermissionRequest" {
		msg := "Claude needs your permission"
		if p.ToolName != "" {
			msg += " to use " + p.ToolName
		}
		return Signal{Source: FromHook, State: Blocked, Kind: "permission", App: "claude-code", Message: sanitize(msg, maxMessage)}, nil
	}
	s := Signal{Source: FromHook, State: Idle, Kind: "notification", App: "claude-code", Message: sanitize(p.Message, maxMessage)}
	if p.NotificationType == "permission_prompt" || (p.NotificationType == "" && strings.Contains(strings.ToLower(p.Message), "permission")) {
		s.State, s.Kind = Blocked, "permission"
	} else if p.NotificationType != "" {
		s.Kind = sanitize(p.NotificationType, 40)
	}
	return s, nil
}
