package chat

import (
	"context"
	"fmt"
	"os"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/inventory"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
)

// channelAgentRunner runs an agent of a Message channel as a role run of
// the pipeline: the run engine records it (a card, a row in External
// agents), and its tools go through the one executor and its policy gate.
// Nobody watches it, so a tool that needs approval is refused at once.
type channelAgentRunner struct{ chat *Service }

var _ messages.AgentRunner = channelAgentRunner{}

func (r channelAgentRunner) RunChannelAgent(ctx context.Context, t messages.AgentTask) (messages.AgentRun, error) {
	id := agentcli.ModelClaudeAgent
	if t.Agent.CLI == messages.AgentCodex {
		id = agentcli.ModelCodexAgent
	}
	m, err := agentcli.ParseModel(id)
	if err != nil {
		return messages.AgentRun{}, err
	}
	o := runs.Origin{Source: "channel:" + t.Channel.ID, Workspace: t.Channel.Workspace, Unattended: true}
	// A run for a project reads and posts in that project's discussion
	// channel through its bridge: only right when that is the agent's
	// channel. Elsewhere the run has the channel's posts in its task and
	// its answer is posted for it.
	if t.Channel.Discussion {
		o.Project = t.Channel.Project
	}
	run, err := r.chat.Pipeline().StartRole(ctx, pipeline.RoleTask{Role: t.Agent.Role, Task: t.Task, Model: m,
		Title: "@" + t.Agent.Name + " in #" + t.Channel.Name, Origin: o})
	if err != nil {
		return messages.AgentRun{}, fmt.Errorf("starting @%s: %w", t.Agent.Name, err)
	}
	got, err := r.chat.Runs().WaitRun(ctx, run.ID)
	if err != nil {
		return messages.AgentRun{ID: run.ID}, fmt.Errorf("waiting for run %s: %w", run.ID, err)
	}
	out := messages.AgentRun{ID: run.ID, Text: got.Text}
	if got.State != runs.StateDone {
		out.Error = got.Error
		if out.Error == "" {
			out.Error = "the run " + got.State
		}
	}
	return out, nil
}

// ServeChannelAgents has the agents added to Message channels answer the
// posts that mention them, until ctx ends.
func ServeChannelAgents(ctx context.Context, channels *messages.Binding, s *Service) {
	messages.ServeBindingAgents(ctx, channels, channelAgentRunner{s}, func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	})
}

// InventoryRuns lets External agents read the session ids the run engine
// recorded, to tell the app's own runs from a person's sessions.
func InventoryRuns(eng *runs.Engine) inventory.RunSource {
	return func(ctx context.Context) ([]inventory.KnownRun, error) {
		rs, err := eng.SessionRuns(ctx)
		out := make([]inventory.KnownRun, len(rs))
		for i, r := range rs {
			out[i] = inventory.KnownRun{SessionID: r.SessionID, Title: r.Title, ChatID: r.ChatID, RunID: r.RunID}
		}
		return out, err
	}
}
