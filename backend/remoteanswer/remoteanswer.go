// Package remoteanswer types answers given on the team server's Needs you
// page into the desktop's terminal panes (teamclient.Typist). It types only
// through runtime_answer's own handler, so the guard is the same: the
// screen is re-read at the moment of typing and nothing is typed unless the
// pane still waits for a decision. Every answer, typed or not, is written
// to the tool audit with the browser it came from.
//
// It never reads more of a screen than it needs to count a prompt's
// numbered choices, and never sends any of it anywhere.
package remoteanswer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/tools"
)

// Channel is the audit's channel for answers from the page.
const Channel = "team-page"

// Typist implements teamclient.Typist over the live-screen tools.
type Typist struct {
	panes   tools.Panes
	blocked tools.BlockedFunc
	answer  tools.Tool
	audit   tools.Auditor
	now     func() time.Time
	settle  time.Duration
}

// Settle is how long a prompt must stay exactly as it is before an answer
// from the page is typed. runtime_answer's guard sees whether a prompt
// shows, not which one: a key pressed at the desk a moment before the
// page's answer lands is still on its way into the agent, whose screen
// changes once it reads it (well within this, in the live test with the
// real Claude Code). Without it the page's answer would land on whatever
// comes next.
const Settle = 150 * time.Millisecond

// freeTextOpens is how long a menu's free-text field takes to open once
// picked, before the reply is typed into it.
const freeTextOpens = 300 * time.Millisecond

var _ teamclient.Typist = (*Typist)(nil)

// New builds the typist; panes and blocked are what runtime_answer uses
// (backend/panetools), audit the app's tool audit.
func New(panes tools.Panes, blocked tools.BlockedFunc, audit tools.Auditor) (*Typist, error) {
	if audit == nil {
		return nil, errors.New("answering from the team server's page needs the tool audit")
	}
	ts, err := tools.RuntimeTools(panes, blocked)
	if err != nil {
		return nil, err
	}
	t := &Typist{panes: panes, blocked: blocked, audit: audit, now: time.Now, settle: Settle}
	for _, tool := range ts {
		if tool.Name == "runtime_answer" {
			t.answer = tool
		}
	}
	if t.answer.Handler == nil {
		return nil, errors.New("answering from the team server's page: runtime_answer is missing")
	}
	return t, nil
}

// choiceLine is one numbered option of a prompt's menu ("❯ 1. Yes",
// "  2. No, and tell Claude…", "› 3. …").
var choiceLine = lazy.Regexp(`^[\s│┃|]*(?:[❯›>▶]\s*)?([1-9])[.)]\s+\S`)

// freeText is a menu's own "type your answer" option (Claude Code's
// question tool: "Type something.", OpenCode's: "Type your own answer"):
// a text reply picks it first, then types.
var freeText = lazy.Regexp(`^[\s│┃|]*(?:[❯›>▶]\s*)?([1-9])[.)]\s+(?i:type (?:something|your own answer))`)

func freeTextChoice(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if m := freeText().FindStringSubmatch(lines[i]); m != nil {
			return m[1]
		}
	}
	return ""
}

// Choices counts the numbered choices 1, 2, 3… of the prompt on pane's
// screen now (0 when it is not waiting).
func (t *Typist) Choices(pane string) int {
	lines, _, err := t.panes.Screen(pane)
	if err != nil || !t.blocked(lines) {
		return 0
	}
	return countChoices(lines)
}

func countChoices(lines []string) int {
	// The menu is the last run of 1, 2, 3… on the screen.
	n := 0
	for _, l := range lines {
		m := choiceLine().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch d := int(m[1][0] - '0'); {
		case d == 1:
			n = 1
		case d == n+1:
			n = d
		}
	}
	return n
}

// unsettled says whether pane's screen changed over the settle time (an
// answer at the desk on its way in); a pane that cannot be read is left
// to the guard, which says why.
func (t *Typist) unsettled(ctx context.Context, pane string) (bool, error) {
	first, _, err := t.panes.Screen(pane)
	if err != nil || !t.blocked(first) {
		return false, nil
	}
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-time.After(t.settle):
	}
	second, _, err := t.panes.Screen(pane)
	if err != nil {
		return false, nil
	}
	return !slices.Equal(first, second), nil
}

// keys is what an answer types: runtime_answer's answer and key.
func keys(a teamclient.RemoteAnswer, choices int) (answer, key string, err error) {
	switch a.Answer {
	case "approve":
		if choices > 0 {
			return "1", "", nil // the first option is the agents' "Yes"
		}
		return "y", "", nil
	case "decline":
		return "", "escape", nil // Claude Code's and Codex's "No" (esc)
	case "choice":
		if a.Choice < 1 || a.Choice > 9 {
			return "", "", fmt.Errorf("choice %d is not 1 to 9", a.Choice)
		}
		return fmt.Sprint(a.Choice), "", nil
	case "text":
		return a.Text, "enter", nil
	}
	return "", "", fmt.Errorf("unknown answer %q", a.Answer)
}

// Answer types a into pane through runtime_answer's handler.
func (t *Typist) Answer(ctx context.Context, pane string, a teamclient.RemoteAnswer) (bool, error) {
	start := t.now()
	answer, key, err := keys(a, t.Choices(pane))
	args, _ := json.Marshal(map[string]string{"id": pane, "answer": answer, "key": key, "from_answer": a.ID})
	c := tools.Call{Tool: "runtime_answer", Channel: Channel, Source: a.Origin, Args: args, Watched: true}
	entry := tools.AuditEntry{At: start, Channel: c.Channel, Source: c.Source, Tool: c.Tool, Args: args}
	defer func() {
		entry.Duration = t.now().Sub(start)
		_ = t.audit.Record(context.WithoutCancel(ctx), entry)
	}()
	if err != nil {
		entry.Decision, entry.Detail = tools.DecisionFailed, err.Error()
		return false, err
	}
	if changed, err := t.unsettled(ctx, pane); err != nil || changed {
		entry.Decision, entry.Detail = tools.DecisionRan, "the prompt changed while the answer was on its way (answered at the desk): nothing was typed"
		return false, nil
	}
	if a.Answer == "text" {
		// A menu with a free-text option takes the reply there: pick it
		// (through the guard), let the field open, then type.
		if lines, _, err := t.panes.Screen(pane); err == nil {
			if n := freeTextChoice(lines); n != "" {
				pick, _ := json.Marshal(map[string]string{"id": pane, "answer": n})
				c.Args = pick
				if res, err := t.answer.Handler(ctx, c); err != nil || res.IsError {
					entry.Decision, entry.Detail = tools.DecisionRan, res.Text
					return false, err
				}
				time.Sleep(freeTextOpens)
			}
		}
	}
	hargs, _ := json.Marshal(map[string]string{"id": pane, "answer": answer, "key": key})
	c.Args = hargs
	res, err := t.answer.Handler(ctx, c)
	if err != nil {
		entry.Decision, entry.Detail = tools.DecisionFailed, err.Error()
		return false, err
	}
	entry.Decision, entry.Detail = tools.DecisionRan, res.Text
	if res.IsError {
		// The guard's refusal: the prompt is gone (answered at the desk).
		if strings.Contains(res.Text, "not waiting for a decision") {
			return false, nil
		}
		return false, errors.New(res.Text)
	}
	return true, nil
}
