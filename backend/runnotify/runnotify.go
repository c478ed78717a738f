// Package runnotify raises the desktop notification for a chat or an agent
// run that waits for the person's approval of a tool call, or for a chat
// whose answer ends in a question (how the Worker role is told to ask for
// a decision), with the same
// words ("Needs you · <title>") and the same cooldown per session as a
// terminal pane (detect.Notifier), and says what a click on it opens. It
// never shows anything itself: the app passes the function that does, and
// the window follows the route.
package runnotify

import (
	"context"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/tools"
)

// Runs reads the pipeline's recorded runs and chats (chat.Service).
type Runs interface {
	GetRun(ctx context.Context, id string) (runs.Run, error)
	GetChat(ctx context.Context, id string) (chat.ChatDetail, error)
}

var _ Runs = (*chat.Service)(nil)

// Key prefixes of a notification: what its click opens.
const (
	KeyChat = "chat:"
	KeyRun  = "run:"
)

// Notifier turns approval requests of pipeline runs into notifications.
type Notifier struct {
	runs Runs
	n    *detect.Notifier
}

// New notifies through send; clock drives the cooldown (nil: the wall
// clock).
func New(runs Runs, clock detect.Clock, send func(detect.Notification)) *Notifier {
	return &Notifier{runs: runs, n: detect.NewNotifier(clock, send)}
}

// Asked is called for every new approval request (approvals.NewQueue). A
// request from a run's bridge rings for its chat, or for the run when it
// belongs to no chat; anything else is left to whoever raised it.
func (n *Notifier) Asked(r tools.ApprovalRequest) {
	runID, ok := strings.CutPrefix(r.Source, "bridge:")
	if !ok || runID == "" {
		return
	}
	ctx := context.Background()
	run, err := n.runs.GetRun(ctx, runID)
	if err != nil {
		return // not a pipeline run (the standalone bridge), or already gone
	}
	key, label := KeyRun+run.ID, run.Title
	if run.ChatID != "" {
		key = KeyChat + run.ChatID
		// The chat's title now: it may have been renamed since the run began.
		if c, err := n.runs.GetChat(ctx, run.ChatID); err == nil && c.Chat.Title != "" {
			label = c.Chat.Title
		}
	}
	who := "The agent"
	if m, err := agentcli.ParseModel(run.Model); err == nil {
		who = m.Agent.Title()
	}
	d := detect.Decision{State: detect.Blocked, Agent: who,
		Message: who + " asks to use " + r.Tool + " and waits for your approval."}
	n.n.Observe(key, label, detect.Update{ID: key, Prev: detect.Decision{State: detect.Working}, Decision: d})
}

// Answered is called when a run of a chat ended and its answer is kept in
// the chat. An answer that ends in a question moves the chat to Needs you
// (chat.IsQuestion), and that rings like an approval request: the
// same key, so the two share one cooldown.
func (n *Notifier) Answered(chatID string) {
	c, err := n.runs.GetChat(context.Background(), chatID)
	if err != nil || c.Chat.State != runs.StateNeedsYou || len(c.Messages) == 0 {
		return
	}
	last := c.Messages[len(c.Messages)-1]
	if last.Role != "assistant" || !chat.IsQuestion(last.Text) {
		return // waiting for an approval: Asked rang for it
	}
	who := "The agent"
	for _, r := range c.Runs {
		if r.ID != last.RunID {
			continue
		}
		if m, err := agentcli.ParseModel(r.Model); err == nil {
			who = m.Agent.Title()
		}
	}
	key := KeyChat + chatID
	d := detect.Decision{State: detect.Blocked, Agent: who}
	n.n.Observe(key, c.Chat.Title, detect.Update{ID: key, Prev: detect.Decision{State: detect.Working}, Decision: d})
}

// idPattern is what a chat or run id looks like (the same as an osfoundry:// link's).
var idPattern = lazy.Regexp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Route is the window route a notification key opens: the chat, or the
// Agents screen for a run outside a chat (where the board's card leads).
// False for keys that are not a chat's or a run's (a pane's, a channel's).
func Route(key string) (string, bool) {
	kind, v, ok := LinkOf(key)
	if !ok {
		return "", false
	}
	return RouteOfLink(kind, v)
}

// LinkOf is the kind and id of the osfoundry:// link a clicked Windows
// toast of key opens (instance.Link).
func LinkOf(key string) (kind, v string, ok bool) {
	for _, k := range []string{KeyChat, KeyRun} {
		if rest, found := strings.CutPrefix(key, k); found && idPattern().MatchString(rest) {
			return strings.TrimSuffix(k, ":"), rest, true
		}
	}
	return "", "", false
}

// RouteOfLink is the route of a link's kind and id, checked by
// instance.Open; false for kinds that are not a chat or a run.
func RouteOfLink(kind, v string) (string, bool) {
	if !idPattern().MatchString(v) {
		return "", false
	}
	switch kind {
	case "chat":
		return "/chat?chat=" + v, true
	case "run":
		return "/agents", true
	}
	return "", false
}
