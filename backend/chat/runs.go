package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
)

// runSpec is a chat's task: the run to resolve and what the chat does
// before it (compacting).
type runSpec struct {
	pipeline.Task
	compact *autoCompact // compact the chat before the task (compact_run.go)
}

// Send adds the user's message to a chat and starts a run of its task
// (the chat's agent, or the Worker role). It returns at once with the
// running Run; progress arrives as EventRun events.
func (s *Service) Send(ctx context.Context, chatID, text string) (runs.Run, error) {
	if strings.TrimSpace(text) == "" {
		return runs.Run{}, errors.New("the message is empty: type the task")
	}
	c, err := s.getChat(ctx, chatID)
	if err != nil {
		return runs.Run{}, err
	}
	if c.Ended {
		return runs.Run{}, errors.New("this chat has ended: start a new chat to give another task")
	}
	if run := s.activeFor(chatID); run != "" {
		if strings.HasPrefix(run, compactPrefix) {
			return runs.Run{}, errors.New("this chat is being compacted: send the task once the summary is saved, or cancel compacting")
		}
		if s.paused(run) {
			return runs.Run{}, errors.New("This chat's run is paused. Resume it, or end the chat.")
		}
		return runs.Run{}, errors.New("a run is still going in this chat: wait for it to finish or cancel it")
	}
	spec := runSpec{Task: pipeline.Task{ChatID: chatID, Title: c.Title, Folder: c.Folder, Worktree: c.Worktree, PlanMode: c.PlanMode}}
	role, model, instr, err := s.p.Resolve(ctx, c.AgentID, "Worker")
	if err != nil {
		return runs.Run{}, err
	}
	spec.Role, spec.Instructions, spec.AgentID = role, instr, c.AgentID
	if model, err = s.withChatModel(ctx, chatID, model); err != nil {
		return runs.Run{}, err
	}
	if spec.Model, err = agentcli.ParseModel(model); err != nil {
		return runs.Run{}, err
	}
	if err := s.p.Check(ctx, &spec.Task); err != nil {
		return runs.Run{}, err
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_messages(chat_id, role, text, created_at) VALUES(?,?,?,?)`,
		chatID, "user", text, s.now().UnixMilli()); err != nil {
		return runs.Run{}, fmt.Errorf("saving the message: %w", err)
	}
	d, err := s.GetChat(ctx, chatID)
	if err != nil {
		return runs.Run{}, err
	}
	spec.Turns = chatTurns(d) // the latest summary, if compacted, and the turns after it
	if c.CLIAgent != "" && c.CLISession != "" {
		// A session no run of this chat produced is the user's own, made
		// outside the app ("Continue here"): fork it, so its file keeps
		// every byte; the fork's id then becomes the chat's session.
		foreign := !slices.ContainsFunc(d.Runs, func(r runs.Run) bool { return r.SessionID == c.CLISession })
		switch {
		case c.CLIAgent == string(spec.Model.Agent):
			// Continue the CLI's own session: it already holds the history.
			spec.Resume, spec.Fork = c.CLISession, foreign
		case foreign:
			// "Continue here": the history lives only in that CLI's session
			// (with the chat's own model, when one was picked).
			spec.Resume, spec.Fork, spec.Model = c.CLISession, true, agentModel(c.CLIAgent)
			if id, err := s.withChatModel(ctx, chatID, spec.Model.ID); err == nil {
				if m, err := agentcli.ParseModel(id); err == nil {
					spec.Model = m
				}
			}
		}
		// Otherwise the role now uses the other CLI: send the transcript.
	}
	if spec.Resume != "" {
		spec.Turns = spec.Turns[len(spec.Turns)-1:]
	}
	spec.compact = planCompaction(d, spec)
	return s.start(ctx, spec)
}

// agentModel is the autonomous model of a CLI ("Continue here" resumes
// that CLI's own session).
func agentModel(cli string) agentcli.Model {
	if cli == string(agentcli.Codex) {
		return agentcli.Model{ID: agentcli.ModelCodexAgent, Agent: agentcli.Codex}
	}
	return agentcli.Model{ID: agentcli.ModelClaudeAgent, Agent: agentcli.Claude}
}

// start has the pipeline resolve the chat's task and hands it to the run
// engine with what a chat keeps of it (its messages, its CLI session, a
// title) and compacting first.
func (s *Service) start(ctx context.Context, spec runSpec) (runs.Run, error) {
	rs, err := s.p.Spec(ctx, &spec.Task)
	if err != nil {
		return runs.Run{}, err
	}
	if spec.compact != nil {
		rs.Work = func(ctx context.Context, job agentcli.Job, run runs.RunFunc) (agentcli.Result, error) {
			return s.runTask(ctx, &spec, job, run)
		}
	}
	rs.Ended = s.recordChatRun
	rs.After = func(state string) {
		if state == runs.StateDone {
			s.titleLater(spec.ChatID)
		}
	}
	return s.eng.Start(ctx, rs)
}

// recordChatRun keeps a chat run's end in its chat: the answer (or the
// error) as a message, and the CLI session the next task continues.
func (s *Service) recordChatRun(ctx context.Context, o runs.Outcome) error {
	role, text := "assistant", o.Result.Text
	if o.State == runs.StateFailed {
		role, text = "error", o.Error
	}
	now := o.At.UnixMilli()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_messages(chat_id, role, text, run_id, created_at) VALUES(?,?,?,?,?)`,
		o.ChatID, role, text, o.RunID, now); err != nil {
		return err
	}
	if o.Result.SessionID != "" && o.State == runs.StateDone {
		_, err := s.db.ExecContext(ctx, `UPDATE pipeline_chats SET cli_agent=?, cli_session=?, updated_at=? WHERE id=?`,
			string(o.Result.Agent), o.Result.SessionID, now, o.ChatID)
		return err
	}
	_, err := s.db.ExecContext(ctx, `UPDATE pipeline_chats SET updated_at=? WHERE id=?`, now, o.ChatID)
	return err
}

// Cancel stops a run (its whole process group) and waits until it is
// recorded as failed.
func (s *Service) Cancel(runID string) error { return s.eng.Cancel(runID) }

func (s *Service) cancelChat(chatID string) {
	if id := s.activeFor(chatID); id != "" {
		s.Cancel(id) //nolint:errcheck // it may have just finished
	}
}

// Wait blocks until a run is no longer active (tests, the headless run).
func (s *Service) Wait(runID string) { s.eng.Wait(runID) }

// GetRun returns one run (a frozen run in progress reads runs.StatePaused).
func (s *Service) GetRun(ctx context.Context, id string) (runs.Run, error) { return s.eng.Get(ctx, id) }

// DiscardBranch deletes a run's branch (the worktree is already gone).
func (s *Service) DiscardBranch(ctx context.Context, runID string) error {
	r, err := s.eng.DiscardBranch(ctx, runID)
	if err != nil {
		return err
	}
	s.changed(r.ChatID)
	return nil
}

func (s *Service) activeFor(chatID string) string { return s.eng.ActiveFor(chatID) }

func (s *Service) chatRunning(chatID string) bool { return s.activeFor(chatID) != "" }

func (s *Service) runs(ctx context.Context, where string, args ...any) ([]runs.Run, error) {
	return s.eng.Select(ctx, where, args...)
}
