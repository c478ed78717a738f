package remoteanswer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/tools"
)

// App answers the app's own chats and agent runs from the Needs you page
// (teamclient.AppAnswerer): a tool call a run's bridge asked to approve is
// approved or declined through the app's approval queue, a chat's question
// is replied to as the person's next message. Each answer is given only if
// the very wait the page showed is still there at that moment (the same
// approval request, the chat still asking since the same time), and goes
// to the tool audit with the browser it came from.
type App struct {
	approvals Approvals
	chats     Chats
	jobs      Jobs
	audit     tools.Auditor
	now       func() time.Time
}

// Jobs is the app's orchestration (*orchestrate.Manager): a Team's or
// Loop's runs wait on approvals like any run.
type Jobs interface {
	AllJobs() ([]orchestrate.Status, error)
}

// WithJobs lets the page answer the approvals of Teams' and Loops' runs.
func (a *App) WithJobs(j Jobs) *App {
	a.jobs = j
	return a
}

// Approvals is the app's approval queue (*tools.ApprovalQueue).
type Approvals interface {
	Pending() []tools.ApprovalRequest
	Resolve(id string, d tools.ApprovalDecision) error
}

// Chats is the app's chats (*chat.Service).
type Chats interface {
	ActiveRun(chatID string) string
	GetChat(ctx context.Context, id string) (chat.ChatDetail, error)
	Send(ctx context.Context, chatID, text string) (runs.Run, error)
}

var _ teamclient.AppAnswerer = (*App)(nil)

// NewApp answers through approvals and chats, into audit.
func NewApp(approvals Approvals, chats Chats, audit tools.Auditor) (*App, error) {
	if approvals == nil || chats == nil || audit == nil {
		return nil, errors.New("answering the app's sessions from the team server's page needs the approvals, the chats and the tool audit")
	}
	return &App{approvals: approvals, chats: chats, audit: audit, now: time.Now}, nil
}

// approvalSource is how a run's bridge names itself in its requests.
func approvalSource(run string) string { return "bridge:" + run }

// pendingFor is the oldest approval request the bridge of one of runs
// waits on.
func (a *App) pendingFor(runs []string) (tools.ApprovalRequest, bool) {
	for _, r := range a.approvals.Pending() {
		for _, run := range runs {
			if run != "" && r.Source == approvalSource(run) {
				return r, true
			}
		}
	}
	return tools.ApprovalRequest{}, false
}

// runsOf are the runs of the session kind/id that may wait on an
// approval: a chat's run going on, an agent run itself, a Team's or
// Loop's runs going on.
func (a *App) runsOf(kind, id string) []string {
	switch kind {
	case "chat":
		return []string{a.chats.ActiveRun(id)}
	case "agent":
		return []string{id}
	case "team", "loop":
		if a.jobs == nil {
			return nil
		}
		all, err := a.jobs.AllJobs()
		if err != nil {
			return nil
		}
		for _, j := range all {
			if j.ID != id {
				continue
			}
			var out []string
			for _, st := range j.Steps {
				if st.State == orchestrate.StateRunning {
					out = append(out, st.RunID)
				}
			}
			return out
		}
	}
	return nil
}

// Waiting: a run (an agent run, a chat's run, a Team's or Loop's run)
// whose bridge asked to approve a tool call asks "approval", named by the
// request's time; a chat whose last message asks a question asks "reply".
func (a *App) Waiting(kind, id, why string) (asks, line string, since int64) {
	if r, ok := a.pendingFor(a.runsOf(kind, id)); ok {
		return "approval", "Asks to use " + r.Tool, r.At
	}
	if kind == "chat" && a.chats.ActiveRun(id) == "" {
		return "reply", why, 0
	}
	return "", "", 0
}

// Answer gives ans to the chat or agent run kind/id.
func (a *App) Answer(ctx context.Context, kind, id string, ans teamclient.RemoteAnswer) (bool, error) {
	start := a.now()
	args, _ := json.Marshal(map[string]any{"kind": kind, "id": id, "answer": ans.Answer, "from_answer": ans.ID})
	entry := tools.AuditEntry{At: start, Channel: Channel, Source: ans.Origin, Args: args, Decision: tools.DecisionRan}
	defer func() {
		entry.Duration = a.now().Sub(start)
		_ = a.audit.Record(context.WithoutCancel(ctx), entry)
	}()
	switch ans.Answer {
	case "approve", "decline":
		entry.Tool = "approval_answer"
		r, ok := a.pendingFor(a.runsOf(kind, id))
		if !ok || r.At != ans.Since {
			entry.Detail = "the approval was no longer waiting (answered at the desk): nothing was decided"
			return false, nil
		}
		d := tools.ApprovalDecision{Approved: ans.Answer == "approve", Reason: "answered on the team server's page"}
		if err := a.approvals.Resolve(r.ID, d); errors.Is(err, tools.ErrNoSuchApproval) {
			entry.Detail = "the approval was answered at the desk a moment before: nothing was decided"
			return false, nil
		} else if err != nil {
			entry.Decision, entry.Detail = tools.DecisionFailed, err.Error()
			return false, err
		}
		entry.Detail = fmt.Sprintf("%s %s", map[bool]string{true: "approved", false: "declined"}[d.Approved], r.Tool)
		return true, nil
	case "text":
		entry.Tool = "chat_reply"
		if kind != "chat" || strings.TrimSpace(ans.Text) == "" {
			entry.Decision, entry.Detail = tools.DecisionFailed, "only a chat takes a reply"
			return false, errors.New(entry.Detail)
		}
		d, err := a.chats.GetChat(ctx, id)
		if err != nil {
			entry.Decision, entry.Detail = tools.DecisionFailed, err.Error()
			return false, err
		}
		if d.Chat.State != runs.StateNeedsYou || d.Chat.UpdatedAt != ans.Since || a.chats.ActiveRun(id) != "" {
			entry.Detail = "the chat no longer waits on that question (answered at the desk): nothing was sent"
			return false, nil
		}
		if _, err := a.chats.Send(ctx, id, ans.Text); err != nil {
			entry.Decision, entry.Detail = tools.DecisionFailed, err.Error()
			return false, err
		}
		entry.Detail = "sent the reply to the chat"
		return true, nil
	}
	entry.Decision, entry.Detail = tools.DecisionFailed, "this session takes approve, decline or a text reply"
	return false, errors.New(entry.Detail)
}
