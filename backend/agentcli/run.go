package agentcli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/bridge"
)

// Sentinel errors callers branch on.
var (
	ErrNotInstalled = errors.New("is not installed")
	ErrTimedOut     = errors.New("passed its time limit and was stopped")
	ErrCanceled     = errors.New("the run was cancelled")
	ErrNoFolder     = errors.New("no working folder")
)

// ToolAccess is the app side of a run's bridge: the executor every call
// goes through and what the run is bound to.
type ToolAccess struct {
	Executor  bridge.Executor
	Workspace string
	User      string
	Channel   string
	Allow     []string
	Watched   bool
	PlanMode  bool
	// Project is the project the run is for ("" = none), bound on its bridge.
	Project string
}

// Job is one run.
type Job struct {
	ID           string // run id; generated when empty
	Model        string // cli:claude, cli:claude:agent, cli:codex:agent
	Role         string // for messages ("Worker")
	NeedsTools   bool   // the role calls tools (refuses cli:claude)
	SystemPrompt string
	Turns        []Turn // the conversation; the last is the task
	Folder       string // working folder (Settings → Local Folders)
	// Worktree isolates the run on branch osf/run-<id> in its own working
	// copy. Codex gets the app's tools only then.
	Worktree bool
	// PlanMode: the run reads and plans. Claude Code is not offered its
	// writing tools; Codex runs in its read-only sandbox without the app's
	// tools; the executor refuses the app's tools that change things
	// (Tools.PlanMode).
	PlanMode bool
	Resume   string // continue this CLI session ("Continue here")
	// Fork continues Resume in a new session (claude --fork-session,
	// codex exec fork), leaving the resumed session's file untouched: the
	// session is the user's own, made outside the app.
	Fork    bool
	Limit   time.Duration // 0: AutonomousLimit
	Tools   *ToolAccess   // nil: no bridge
	OnEvent func(Event)
	// Tap receives every stdout line before decoding (stream recorders).
	Tap func(line []byte)
	// Control, when set, lets the caller pause and resume the run.
	Control *Control
	// OnWorktree, when set, hears where a worktree run works as soon as
	// its worktree exists, before the CLI starts: a caller that records it
	// can offer the run's changes after the app was killed mid-run
	// (RecoverWorktree).
	OnWorktree func(WorktreeInfo)
}

// RunnerOptions configure a Runner.
type RunnerOptions struct {
	Env Env
	// LiveEnv, when set, is read at every use instead of Env: the app's
	// own environment changes once after start, when the login shell's
	// PATH arrives (backend/shellenv), and a Runner built before that must
	// not keep the bare PATH it started with.
	LiveEnv func() Env
	// WorktreeDir holds the per-run worktrees (under the app data folder).
	WorktreeDir string
	// Bins overrides discovery per agent (a path set in settings; tests).
	Bins map[Agent]string
	// ClaudeExtra are flags appended to every Claude run, CodexConfig -c
	// overrides for every Codex run (advanced settings; the test harness
	// points the CLIs at the fake model with them).
	ClaudeExtra []string
	CodexConfig []string
}

// Runner starts CLI runs. It is safe for concurrent use.
type Runner struct {
	o     RunnerOptions
	probe *flagProbe
}

// NewRunner returns a Runner.
func NewRunner(o RunnerOptions) *Runner {
	if o.WorktreeDir == "" {
		o.WorktreeDir = filepath.Join(os.TempDir(), "osfoundry-worktrees")
	}
	return &Runner{o: o, probe: newFlagProbe()}
}

// Env is the environment the runner discovers and starts CLIs with.
func (r *Runner) Env() Env {
	if r.o.LiveEnv != nil {
		return r.o.LiveEnv()
	}
	return r.o.Env
}

// Discover is Discover with the runner's environment and overrides.
func (r *Runner) Discover(a Agent) Install {
	in := Discover(a, r.Env())
	if p := r.o.Bins[a]; p != "" {
		in.Installed, in.Path, in.Source = isExecutable(p), p, "settings"
	}
	return in
}

func (r *Runner) bin(a Agent) (string, error) {
	in := r.Discover(a)
	if !in.Installed {
		hint := "npm install -g @anthropic-ai/claude-code"
		if a == Codex {
			hint = "npm install -g @openai/codex"
		}
		return "", fmt.Errorf("%s %w: install it (%s) and check External AI", a.Title(), ErrNotInstalled, hint)
	}
	return in.Path, nil
}

// NewRunID returns a short random run id.
func NewRunID() string {
	var b [6]byte
	rand.Read(b[:]) //nolint:errcheck // never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// Run runs job to the end and returns what it produced. On failure the
// error says what happened and what to do, and the Result still carries
// whatever the run reported (progress, stderr tail, the branch).
func (r *Runner) Run(ctx context.Context, job Job) (res Result, err error) {
	start := time.Now()
	if job.ID == "" {
		job.ID = NewRunID()
	}
	res = Result{RunID: job.ID, Model: job.Model, Progress: []string{}}
	defer func() { res.Duration = time.Since(start); res.CostUSD = 0 }()
	m, err := ParseModel(job.Model)
	if err != nil {
		return res, err
	}
	res.Agent = m.Agent
	if err := m.CheckRole(job.Role, job.NeedsTools); err != nil {
		return res, err
	}
	if len(job.Turns) == 0 || strings.TrimSpace(job.Turns[len(job.Turns)-1].Text) == "" {
		return res, errors.New("the task is empty: type what the agent should do")
	}
	bin, err := r.bin(m.Agent)
	if err != nil {
		return res, err
	}
	folder, err := runFolder(job.Folder, m.Chat, r.Env().Home)
	if err != nil {
		return res, err
	}
	s := &sink{res: &res, emit: job.OnEvent}
	sys := r.Env()
	env := ScrubEnv(m.Agent, sys.Environ)
	var prov codexProvider
	if m.Agent == Codex {
		if prov, err = readCodexProvider(sys); err != nil {
			return res, err
		}
		if env, err = prov.withKey(env, sys); err != nil {
			return res, err
		}
		if prov.custom() {
			// A run that fails must say where it went (not "OpenAI").
			defer func() {
				if err != nil && !errors.Is(err, ErrPromptTooLong) && !errors.Is(err, ErrCanceled) {
					err = fmt.Errorf("%s: %w", prov.describe(), err)
				}
			}()
		}
	}
	if m.Agent == Codex && job.Resume != "" && job.Worktree {
		// `codex exec resume` continues in the session's own folder and
		// takes no -C: a worktree (and the bypass it allows) cannot apply.
		job.Worktree = false
		s.send(KindProgress, "A resumed Codex session runs in its own folder, so it gets no worktree")
	}

	if job.Worktree && !m.Chat {
		wt, err := createWorktree(ctx, env, folder, r.o.WorktreeDir, job.ID)
		if err != nil {
			return res, err
		}
		folder = wt.Sub
		res.Repo = wt.Repo
		if job.OnWorktree != nil {
			job.OnWorktree(wt.info())
		}
		s.send(KindProgress, "Working on branch "+wt.Branch+" in its own worktree")
		defer func() {
			stat, diff, kept, ferr := wt.finish(ctx, commitMessage(job))
			if kept {
				res.Branch, res.DiffStat, res.Diff = wt.Branch, stat, diff
			} else {
				wt.deleteBranch(ctx)
				s.send(KindProgress, "No files were changed")
			}
			if ferr != nil && err == nil {
				err = ferr
			}
		}()
	}
	tools := job.Tools
	if m.Chat {
		tools = nil
	}
	plan := job.planMode()
	if plan && m.Agent == Codex && !m.Chat {
		tools = nil
		s.send(KindProgress, CodexPlanModeNote)
	}
	if tools != nil && m.Agent == Codex && !job.Worktree {
		tools = nil
		s.send(KindProgress, "osFoundry tools are off for this run: Codex gets them only with git-worktree isolation (it trades its own sandbox for git safety). Point it at a git repo folder and turn isolation on.")
	}
	var b *bridge.Bridge
	if tools != nil {
		b, err = bridge.Start(ctx, bridge.Config{
			Workspace: tools.Workspace, User: tools.User, Channel: tools.Channel, Allow: tools.Allow,
			Executor: tools.Executor, Folder: folder, Watched: tools.Watched, PlanMode: tools.PlanMode, Project: tools.Project,
			Source: "bridge:" + job.ID,
		})
		if err != nil {
			return res, fmt.Errorf("starting the run's tool bridge: %w", err)
		}
		defer b.Close()
	}
	s.folder = folder
	argv, dec, err := r.command(ctx, m, bin, env, folder, job, b, s, prov.overrides)
	if err != nil {
		return res, err
	}
	limit := job.Limit
	if limit <= 0 {
		limit = AutonomousLimit
	}
	onLine := dec.line
	if job.Tap != nil {
		onLine = func(l []byte) { job.Tap(l); dec.line(l) }
	}
	pr := runProc(ctx, procSpec{Argv: argv, Env: env, Dir: folder, Limit: limit, OnLine: onLine, Control: job.Control})
	if b != nil {
		b.Close()
	}
	res.ExitCode = pr.ExitCode
	res.StderrTail = pr.Stderr
	return res, refusedModel(m, outcome(m.Agent, pr, dec.final(), &res, limit))
}

func (j Job) planMode() bool { return j.PlanMode || (j.Tools != nil && j.Tools.PlanMode) }

// decoder is a CLI's stream reader.
type decoder interface {
	line([]byte)
	final() bool // saw the CLI's final record
}

func (d *claudeDecoder) final() bool { return d.sawFinal }
func (d *codexDecoder) final() bool  { return d.sawFinal }

// command builds the argv; codexConfig are the person's provider's -c
// overrides (readCodexProvider), placed before the app's own.
func (r *Runner) command(ctx context.Context, m Model, bin string, env []string, folder string, job Job, b *bridge.Bridge, s *sink, codexConfig []string) ([]string, decoder, error) {
	var url, token string
	if b != nil {
		url, token = b.URL(), b.Token()
	}
	if m.Agent == Claude {
		argv, err := BuildClaude(bin, ClaudeArgs{
			Prompt: Transcript(job.Turns), SystemPrompt: job.SystemPrompt, Folder: folder, Chat: m.Chat,
			BridgeURL: url, BridgeToken: token, Resume: job.Resume, Fork: job.Fork, Model: m.CLIModel, Extra: r.o.ClaudeExtra,
			PlanMode: job.planMode(),
		})
		return argv, newClaudeDecoder(s), err
	}
	ignore, err := r.probe.hasFlag(ctx, bin, env, "--ignore-rules", "exec")
	if err != nil {
		return nil, nil, fmt.Errorf("Codex at %s could not print its help, so it cannot run: %w — reinstall or update it", bin, err)
	}
	sandbox := "workspace-write"
	if job.planMode() {
		sandbox = "read-only" // and no bridge: see CodexPlanModeNote
	}
	ca := CodexArgs{SystemPrompt: job.SystemPrompt, Turns: job.Turns, Folder: folder, Sandbox: sandbox,
		BridgeURL: url, BridgeToken: token, IgnoreRules: ignore, Resume: job.Resume, Fork: job.Fork, Model: m.CLIModel, Config: append(slices.Clip(codexConfig), r.o.CodexConfig...)}
	if job.Resume != "" {
		// The resumed session already holds the system prompt and history.
		ca.Prompt = Transcript(job.Turns[len(job.Turns)-1:])
	}
	argv, err := BuildCodex(bin, ca)
	return argv, newCodexDecoder(s), err
}

func runFolder(folder string, chat bool, home string) (string, error) {
	if folder == "" {
		if !chat {
			return "", fmt.Errorf("%w: add one in Settings → Local Folders (the most recently added folder is used)", ErrNoFolder)
		}
		folder = home
		if folder == "" {
			folder = os.TempDir()
		}
	}
	abs, err := filepath.Abs(folder)
	if err != nil {
		return "", fmt.Errorf("resolving the working folder %s: %w", folder, err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return "", fmt.Errorf("the working folder %s does not exist: pick another one in Settings → Local Folders", abs)
	}
	return abs, nil
}

func commitMessage(job Job) string {
	task := ""
	if n := len(job.Turns); n > 0 {
		task = oneLine(job.Turns[n-1].Text)
	}
	return fmt.Sprintf("osFoundry run %s: %s", job.ID, clip(task, 72))
}

// outcome turns how the process ended into the run's error, if any.
func outcome(a Agent, pr procResult, final bool, res *Result, limit time.Duration) error {
	name := a.Title()
	switch {
	case pr.StartErr != nil:
		return fmt.Errorf("starting %s: %w — check the binary in External AI", name, pr.StartErr)
	case pr.TimedOut:
		return fmt.Errorf("%s %w after %s; everything it started was ended too. Split the task or raise the limit", name, ErrTimedOut, limit.Round(time.Second))
	case pr.Canceled:
		return fmt.Errorf("%s: %w", name, ErrCanceled)
	}
	detail := lastLines(pr.Stderr, 6)
	if len(res.Errors) > 0 {
		detail = res.Errors[len(res.Errors)-1]
	}
	if pr.ExitCode != 0 {
		if pr.ExitCode < 0 {
			return fmt.Errorf("%s stopped unexpectedly (%v) before finishing: %s", name, pr.WaitErr, orNone(detail))
		}
		msg := fmt.Sprintf("%s exited with status %d: %s", name, pr.ExitCode, orNone(detail))
		if tooOld(pr.Stderr) {
			msg += " — this version of " + name + " is too old for osFoundry (it rejects a flag the app passes): update it"
		}
		return errors.New(msg)
	}
	if res.IsError {
		return fmt.Errorf("%s reported an error: %s", name, orNone(detail))
	}
	if !final {
		return fmt.Errorf("%s ended without a final answer (its output stopped mid-stream): %s", name, orNone(detail))
	}
	return nil
}

func tooOld(stderr string) bool {
	s := strings.ToLower(stderr)
	return strings.Contains(s, "unknown option") || strings.Contains(s, "unexpected argument") ||
		strings.Contains(s, "unrecognized option") || strings.Contains(s, "unknown flag")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(no error output)"
	}
	return s
}
