package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/runs"
)

// compactPrefix marks the id of a compaction in progress among a chat's
// active runs: while it works the chat reads Running, takes no task, and
// Cancel (or Pause) stops it like a run.
const compactPrefix = "compact-"

// Compact is the chat's Compact button: the Compaction role summarises
// every turn so far, and the next run is sent the summary and the turns
// after it. It returns when the summary is saved.
func (s *Service) Compact(ctx context.Context, chatID string) (Compaction, error) {
	c, err := s.getChat(ctx, chatID)
	if err != nil {
		return Compaction{}, err
	}
	if c.Ended {
		return Compaction{}, errors.New("this chat has ended: there is no next run to compact it for")
	}
	d, err := s.GetChat(ctx, chatID)
	if err != nil {
		return Compaction{}, err
	}
	var from int64
	if k := len(d.Compactions); k > 0 {
		from = d.Compactions[k-1].UptoMessageID
	}
	if !slices.ContainsFunc(d.Messages, func(m Message) bool { return m.ID > from && m.Role != "error" }) {
		return Compaction{}, ErrNothingToCompact
	}
	role, err := s.roles.RoleModel(ctx, "Compaction")
	if err != nil {
		return Compaction{}, err
	}
	upto := d.Messages[len(d.Messages)-1].ID
	m, _ := agentcli.ParseModel(role.Model) //nolint:errcheck // a bad id fails in the run, with its reason
	t, err := s.eng.Track(ctx, compactPrefix+agentcli.NewRunID(), chatID, m.Agent.Title(),
		[]string{"Compacting the conversation with the Compaction role (" + role.Model + ")"})
	if errors.Is(err, runs.ErrChatBusy) {
		return Compaction{}, errors.New("a run is still going in this chat: compact it once the run has finished")
	}
	if err != nil {
		return Compaction{}, err
	}
	defer t.Release()
	cp, err := s.compact(t.Ctx, c, upto, CompactButton, t.Control)
	if err != nil && t.Ctx.Err() != nil {
		return cp, errors.New("compacting was cancelled: the chat is as it was")
	}
	return cp, err
}

// autoCompact is a run's plan to compact its chat before the task.
type autoCompact struct {
	why  string
	upto int64 // the last message before the new task
}

// planCompaction decides, when Send starts a run, whether the run compacts
// the chat first (the new task is d's last message): the prompt it would
// send, or the CLI session it would continue, is past the threshold, and
// there are turns before the task to summarise.
func planCompaction(d ChatDetail, spec runSpec) *autoCompact {
	n := len(d.Messages)
	if n < 2 {
		return nil
	}
	var upto int64
	if k := len(d.Compactions); k > 0 {
		upto = d.Compactions[k-1].UptoMessageID
	}
	if !slices.ContainsFunc(d.Messages[:n-1], func(m Message) bool { return m.ID > upto && m.Role != "error" }) {
		return nil
	}
	task := d.Messages[n-1].Text
	var why string
	if spec.Resume != "" {
		// The session holds the conversation: what it last saw, plus the task.
		for i := len(d.Runs) - 1; i >= 0; i-- {
			if r := d.Runs[i]; r.SessionID == spec.Resume && r.State == runs.StateDone {
				why = compactionDue(spec.Model.Agent, 0, r.Usage.ContextTokens+len(task)/4)
				break
			}
		}
	} else {
		size := len(agentcli.Transcript(spec.Turns)) + len(spec.Role.Prompt) + len(spec.Instructions)
		why = compactionDue(spec.Model.Agent, size, 0)
	}
	if why == "" {
		return nil
	}
	return &autoCompact{why: why, upto: d.Messages[n-2].ID}
}

// runTask runs a chat's task, compacting the chat first when Send planned
// it. A compaction that fails is reported in the run's progress and the
// task is sent whole (it may still fit).
func (s *Service) runTask(ctx context.Context, spec *runSpec, job agentcli.Job, run runs.RunFunc) (agentcli.Result, error) {
	var lines []string
	say := func(text string) {
		lines = append(lines, text)
		job.OnEvent(agentcli.Event{Kind: agentcli.KindProgress, Text: text})
	}
	say("Compacting the earlier conversation first: " + spec.compact.why)
	c, err := s.getChat(ctx, spec.ChatID)
	var cp Compaction
	if err == nil {
		cp, err = s.compact(ctx, c, spec.compact.upto, CompactAuto, job.Control)
	}
	if err != nil {
		if ctx.Err() != nil {
			return agentcli.Result{Progress: lines}, fmt.Errorf("compacting the chat: %w", agentcli.ErrCanceled)
		}
		say("Could not compact the earlier conversation (" + strings.TrimSuffix(err.Error(), ".") + "); sending it whole")
	} else {
		say(fmt.Sprintf("Compacted %d earlier turns into a summary", cp.Turns))
		job.Turns = []agentcli.Turn{summaryTurn(cp.Summary), job.Turns[len(job.Turns)-1]}
		job.Resume, job.Fork = "", false
	}
	res, err := run(ctx, job)
	res.Progress = append(lines, res.Progress...)
	return res, err
}

// Compact is the chat's Compact button: the Compaction role summarises the
// conversation so far; it resolves once the summary is saved.
func (b *Binding) Compact(chatID string) (Compaction, error) { return b.svc.Compact(b.ctx, chatID) }
