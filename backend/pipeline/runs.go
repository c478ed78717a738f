package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// activeRun is a run in progress.
type activeRun struct {
	id, chatID string
	origin     Origin
	cancel     context.CancelFunc
	done       chan struct{}
	ctl        *agentcli.Control // Pause/Resume of its process group
	agent      string            // "Claude Code", for the paused line

	mu       sync.Mutex
	progress []string
	partial  strings.Builder
	flushed  time.Time
	timer    *time.Timer // flushes text still held when no more arrives
}

// partialEvery batches streamed answer text: one UI event per frame-ish
// interval instead of one per token.
const partialEvery = 50 * time.Millisecond

// runSpec is what a run needs, resolved from a chat or an agent.
type runSpec struct {
	chatID, agentID, title string
	model                  string
	role                   Role
	folder                 string
	worktree               bool
	noWorktree             bool // the chat turned isolation off (codeiso.go)
	planMode               bool // the bridge refuses tools that change things (planmode.go)
	turns                  []agentcli.Turn
	resume                 string
	fork                   bool // resume in a new session (the original is the user's)
	instructions           string
	origin                 Origin
	compact                *autoCompact // compact the chat before the task (compact_run.go)
}

// Send adds the user's message to a chat and starts a run of its task
// (the chat's agent, or the Worker role). It returns at once with the
// running Run; progress arrives as EventRun events.
func (s *Service) Send(ctx context.Context, chatID, text string) (Run, error) {
	if strings.TrimSpace(text) == "" {
		return Run{}, errors.New("the message is empty: type the task")
	}
	c, err := s.getChat(ctx, chatID)
	if err != nil {
		return Run{}, err
	}
	if c.Ended {
		return Run{}, errors.New("this chat has ended: start a new chat to give another task")
	}
	if run := s.activeFor(chatID); run != "" {
		if strings.HasPrefix(run, compactPrefix) {
			return Run{}, errors.New("this chat is being compacted: send the task once the summary is saved, or cancel compacting")
		}
		if s.paused(run) {
			return Run{}, errors.New("This chat's run is paused. Resume it, or end the chat.")
		}
		return Run{}, errors.New("a run is still going in this chat: wait for it to finish or cancel it")
	}
	spec := runSpec{chatID: chatID, title: c.Title, folder: c.Folder, worktree: c.Worktree, planMode: c.PlanMode}
	role, model, instr, err := s.resolve(ctx, c.AgentID, "Worker")
	if err != nil {
		return Run{}, err
	}
	spec.role, spec.model, spec.instructions, spec.agentID = role, model, instr, c.AgentID
	if _, err := s.check(ctx, &spec); err != nil {
		return Run{}, err
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_messages(chat_id, role, text, created_at) VALUES(?,?,?,?)`,
		chatID, "user", text, s.now().UnixMilli()); err != nil {
		return Run{}, fmt.Errorf("saving the message: %w", err)
	}
	d, err := s.GetChat(ctx, chatID)
	if err != nil {
		return Run{}, err
	}
	spec.turns = chatTurns(d) // the latest summary, if compacted, and the turns after it
	if c.CLIAgent != "" && c.CLISession != "" {
		// A session no run of this chat produced is the user's own, made
		// outside the app ("Continue here"): fork it, so its file keeps
		// every byte; the fork's id then becomes the chat's session.
		foreign := !slices.ContainsFunc(d.Runs, func(r Run) bool { return r.SessionID == c.CLISession })
		switch {
		case c.CLIAgent == string(mustAgent(model)):
			// Continue the CLI's own session: it already holds the history.
			spec.resume, spec.fork = c.CLISession, foreign
		case foreign:
			// "Continue here": the history lives only in that CLI's session.
			spec.resume, spec.fork, spec.model = c.CLISession, true, agentModel(c.CLIAgent)
		}
		// Otherwise the role now uses the other CLI: send the transcript.
	}
	if spec.resume != "" {
		spec.turns = spec.turns[len(spec.turns)-1:]
	}
	spec.compact = planCompaction(d, spec)
	return s.start(ctx, spec)
}

// RunAgent runs one of the Agents screen's agents on a task outside any
// chat: an Agent card on the board. In plan mode the run's bridge refuses
// every tool that changes things (planmode.go).
func (s *Service) RunAgent(ctx context.Context, agentID, task string, planMode bool) (Run, error) {
	a, err := s.GetAgent(ctx, agentID)
	if err != nil {
		return Run{}, err
	}
	if strings.TrimSpace(task) == "" {
		return Run{}, errors.New("the task is empty: type what the agent should do")
	}
	role, model, instr, err := s.resolve(ctx, agentID, a.RuntimeRole)
	if err != nil {
		return Run{}, err
	}
	return s.start(ctx, runSpec{agentID: agentID, title: a.Name, model: model, role: role, instructions: instr,
		planMode: planMode, turns: []agentcli.Turn{{Role: "user", Text: task}}})
}

// resolve picks the model and role: the agent's Model Preference and
// Runtime Role, else the role's assigned model.
func (s *Service) resolve(ctx context.Context, agentID, roleName string) (Role, string, string, error) {
	var instr, pref string
	if agentID != "" {
		a, err := s.GetAgent(ctx, agentID)
		if err != nil {
			return Role{}, "", "", err
		}
		roleName, pref, instr = a.RuntimeRole, a.ModelPreference, a.Instructions
	}
	role, err := LookupRole(roleName)
	if err != nil {
		return Role{}, "", "", err
	}
	model := pref
	if model == "" {
		r, err := s.RoleModel(ctx, role.Name)
		if err != nil {
			return Role{}, "", "", err
		}
		model = r.Model
	}
	if !agentcli.IsCLIModel(model) {
		return Role{}, "", "", fmt.Errorf("the %s role uses %s, which is not an External AI model; the pipeline here runs only cli:* models", role.Name, model)
	}
	return role, model, instr, nil
}

func mustAgent(model string) agentcli.Agent {
	m, _ := agentcli.ParseModel(model)
	return m.Agent
}

func agentModel(cli string) string {
	if cli == string(agentcli.Codex) {
		return agentcli.ModelCodexAgent
	}
	return agentcli.ModelClaudeAgent
}

// check refuses a run that cannot start (model, role, CLI turned off, no
// folder) and fills in the folder. Send calls it before it keeps the
// user's message, so a refused task is not kept to be shown twice.
func (s *Service) check(ctx context.Context, spec *runSpec) (agentcli.Model, error) {
	m, err := agentcli.ParseModel(spec.model)
	if err != nil {
		return m, err
	}
	if err := m.CheckRole(spec.role.Name, spec.role.NeedsTools); err != nil {
		return m, err
	}
	for _, c := range s.ExternalAI(ctx) {
		if c.Agent == m.Agent && !c.Enabled {
			return m, fmt.Errorf("%s is turned off: turn it on in the External AI tab", c.Name)
		}
	}
	// The Code screen's isolation may choose the folder (codeiso.go).
	if err := s.isolate(ctx, spec, m); err != nil {
		return m, err
	}
	if spec.folder == "" {
		if spec.folder, err = s.CurrentFolder(ctx); err != nil {
			return m, err
		}
	}
	return m, nil
}

// start validates the run, records it and runs it in the background.
func (s *Service) start(ctx context.Context, spec runSpec) (Run, error) {
	m, err := s.check(ctx, &spec)
	if err != nil {
		return Run{}, err
	}
	if m.Agent == agentcli.Codex && spec.role.NeedsTools && spec.resume == "" && !spec.noWorktree && inGitRepo(spec.folder) {
		// Codex gets the app's tools only with git isolation (SPEC §3).
		spec.worktree = true
	}
	now := s.now()
	r := Run{ID: agentcli.NewRunID(), ChatID: spec.chatID, AgentID: spec.agentID, Title: spec.title, Model: spec.model,
		Role: spec.role.Name, Folder: spec.folder, State: StateRunning, Progress: []string{}, StartedAt: now}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return Run{}, errors.New("the app is shutting down")
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_runs(id, chat_id, agent_id, title, model, role, folder, state, started_at)
		VALUES(?,?,?,?,?,?,?,?,?)`, r.ID, r.ChatID, r.AgentID, r.Title, r.Model, r.Role, r.Folder, r.State, now.UnixMilli()); err != nil {
		s.mu.Unlock()
		return Run{}, fmt.Errorf("recording the run: %w", err)
	}
	if spec.worktree && (m.Agent != agentcli.Codex || spec.resume == "") {
		if err := s.recordIsolated(ctx, r.ID, spec.origin.Workspace); err != nil {
			s.mu.Unlock()
			return Run{}, err
		}
	}
	rctx, cancel := context.WithCancel(s.runCtx)
	ar := &activeRun{id: r.ID, chatID: spec.chatID, origin: spec.origin, cancel: cancel, done: make(chan struct{}),
		ctl: agentcli.NewControl(), agent: m.Agent.Title()}
	s.active[r.ID] = ar
	s.wg.Add(1)
	s.mu.Unlock()
	s.changed(spec.chatID)
	go s.execute(rctx, ar, spec)
	return r, nil
}

func (s *Service) execute(ctx context.Context, ar *activeRun, spec runSpec) {
	defer s.wg.Done()
	defer close(ar.done)
	defer ar.cancel()
	prompt := spec.role.Prompt
	if spec.instructions != "" {
		prompt += "\n\n" + spec.instructions
	}
	job := agentcli.Job{ID: ar.id, Model: spec.model, Role: spec.role.Name, NeedsTools: spec.role.NeedsTools,
		SystemPrompt: prompt, Turns: spec.turns, Folder: spec.folder, Worktree: spec.worktree, PlanMode: spec.planMode, Resume: spec.resume, Fork: spec.fork,
		OnEvent: func(e agentcli.Event) { s.onEvent(ar, e) }, Control: ar.ctl,
		OnWorktree: func(wt agentcli.WorktreeInfo) { s.recordWorktree(ar.id, wt) }}
	if s.o.Tools != nil && spec.role.NeedsTools {
		job.Tools = s.o.Tools(ar.id, spec.role)
		if job.Tools != nil {
			job.Tools.PlanMode = spec.planMode
		}
	}
	res, runErr := s.runTask(ctx, ar, &spec, job)
	ar.mu.Lock()
	if ar.timer != nil {
		ar.timer.Stop()
	}
	ar.mu.Unlock()
	s.flushPartial(ar)
	state, errText := StateDone, ""
	if runErr != nil {
		state, errText = StateFailed, runErr.Error()
	}
	s.finish(ar, spec, res, state, errText)
}

func (s *Service) finish(ar *activeRun, spec runSpec, res agentcli.Result, state, errText string) {
	ctx := context.Background()
	prog, _ := json.Marshal(res.Progress)
	usage, _ := json.Marshal(res.Usage)
	now := s.now().UnixMilli()
	// A run cut short keeps the text it had streamed (written as it came).
	keepStreamed := state == StateFailed && res.Text == ""
	_, err := s.db.ExecContext(ctx, `UPDATE pipeline_runs SET state=?, text=CASE WHEN ? THEN text ELSE ? END, error=?, progress=?, usage=?, cost_usd=0,
		reported_cost_usd=?, session_id=?, repo=?, branch=?, diff_stat=?, diff=?, worktree='', finished_at=? WHERE id=?`,
		state, boolInt(keepStreamed), res.Text, errText, string(prog), string(usage), res.ReportedCostUSD, res.SessionID, res.Repo, res.Branch, res.DiffStat, res.Diff, now, ar.id)
	if err == nil && spec.chatID != "" {
		role, text := "assistant", res.Text
		if state == StateFailed {
			role, text = "error", errText
		}
		_, err = s.db.ExecContext(ctx, `INSERT INTO pipeline_messages(chat_id, role, text, run_id, created_at) VALUES(?,?,?,?,?)`,
			spec.chatID, role, text, ar.id, now)
		if err == nil && res.SessionID != "" && state == StateDone {
			_, err = s.db.ExecContext(ctx, `UPDATE pipeline_chats SET cli_agent=?, cli_session=?, updated_at=? WHERE id=?`,
				string(res.Agent), res.SessionID, now, spec.chatID)
		} else if err == nil {
			_, err = s.db.ExecContext(ctx, `UPDATE pipeline_chats SET updated_at=? WHERE id=?`, now, spec.chatID)
		}
	}
	if err != nil {
		state, errText = StateFailed, "recording the run's result: "+err.Error()
	}
	s.mu.Lock()
	delete(s.active, ar.id)
	s.mu.Unlock()
	s.em.Emit(EventRun, RunEvent{RunID: ar.id, ChatID: spec.chatID, Kind: "end", Text: errText, State: state})
	s.changed(spec.chatID)
	if state == StateDone && spec.chatID != "" {
		s.titleLater(spec.chatID)
	}
}

func (s *Service) onEvent(ar *activeRun, e agentcli.Event) {
	if e.Kind == agentcli.KindPartial {
		ar.mu.Lock()
		ar.partial.WriteString(e.Text)
		due := time.Since(ar.flushed) >= partialEvery
		if !due && ar.timer == nil {
			ar.timer = time.AfterFunc(partialEvery, func() { s.flushPartial(ar) })
		}
		ar.mu.Unlock()
		if due {
			s.flushPartial(ar)
		}
		return
	}
	s.flushPartial(ar)
	if e.Kind == agentcli.KindProgress || e.Kind == agentcli.KindError {
		ar.mu.Lock()
		ar.progress = append(ar.progress, e.Text)
		prog := append([]string{}, ar.progress...)
		ar.mu.Unlock()
		s.persistProgress(ar.id, prog)
	}
	s.em.Emit(EventRun, RunEvent{RunID: ar.id, ChatID: ar.chatID, Kind: e.Kind, Text: e.Text})
}

func (s *Service) flushPartial(ar *activeRun) {
	ar.mu.Lock()
	text := ar.partial.String()
	ar.partial.Reset()
	ar.flushed = time.Now()
	ar.timer = nil
	ar.mu.Unlock()
	if text != "" {
		s.persistPartial(ar.id, text)
		s.em.Emit(EventRun, RunEvent{RunID: ar.id, ChatID: ar.chatID, Kind: agentcli.KindPartial, Text: text})
	}
}

// Cancel stops a run (its whole process group) and waits until it is
// recorded as failed.
func (s *Service) Cancel(runID string) error {
	s.mu.Lock()
	ar := s.active[runID]
	s.mu.Unlock()
	if ar == nil {
		return fmt.Errorf("run %s is not running", runID)
	}
	ar.cancel()
	<-ar.done
	return nil
}

func (s *Service) cancelChat(chatID string) {
	if id := s.activeFor(chatID); id != "" {
		s.Cancel(id) //nolint:errcheck // it may have just finished
	}
}

// Wait blocks until a run is no longer active (tests, the headless run).
func (s *Service) Wait(runID string) {
	s.mu.Lock()
	ar := s.active[runID]
	s.mu.Unlock()
	if ar != nil {
		<-ar.done
	}
}

// GetRun returns one run (a frozen run in progress reads StatePaused).
func (s *Service) GetRun(ctx context.Context, id string) (Run, error) {
	rs, err := s.runs(ctx, `id = ?`, id)
	if err != nil {
		return Run{}, err
	}
	if len(rs) == 0 {
		return Run{}, fmt.Errorf("no run %s", id)
	}
	return rs[0], nil
}

// DiscardBranch deletes a run's branch (the worktree is already gone).
func (s *Service) DiscardBranch(ctx context.Context, runID string) error {
	r, err := s.GetRun(ctx, runID)
	if err != nil {
		return err
	}
	if r.Branch == "" {
		return fmt.Errorf("run %s kept no branch", runID)
	}
	if err := agentcli.DiscardBranch(ctx, r.Repo, r.Branch); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE pipeline_runs SET branch = '' WHERE id = ?`, runID); err != nil {
		return fmt.Errorf("recording the discarded branch: %w", err)
	}
	s.changed(r.ChatID)
	return nil
}

func (s *Service) activeFor(chatID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, ar := range s.active {
		if ar.chatID == chatID && chatID != "" {
			return id
		}
	}
	return ""
}

func (s *Service) chatRunning(chatID string) bool { return s.activeFor(chatID) != "" }

func (s *Service) liveProgress(runID string) []string {
	s.mu.Lock()
	ar := s.active[runID]
	s.mu.Unlock()
	if ar == nil {
		return nil
	}
	ar.mu.Lock()
	defer ar.mu.Unlock()
	return append([]string{}, ar.progress...)
}

// inGitRepo reports whether folder is inside a git working tree.
func inGitRepo(folder string) bool {
	for dir := folder; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}
