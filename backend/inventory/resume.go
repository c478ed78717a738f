package inventory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/osfoundry/desktop/backend/lazy"
)

// ErrFolderMissing means the session's recorded folder no longer exists.
// A relaunch is refused: it never opens the session somewhere else.
var ErrFolderMissing = errors.New("the session's folder no longer exists")

// ErrNotResumable means the app has no command line that resumes a session
// by id (Cursor, Antigravity, Kiro): open it in the app itself (for Cursor
// the message names what stays there, see StaysInApp).
var ErrNotResumable = errors.New("this app cannot resume a session from a terminal")

// PlanOptions are the user's ticks for this one launch.
type PlanOptions struct {
	// KeepPermissions passes every recorded approval or sandbox mode even
	// when it asks less than the CLI's default.
	KeepPermissions bool
	// Keep names the single values the user ticked for this launch, by their
	// ValueNote label ("Approval mode", "Approval", "Sandbox").
	Keep []string
}

// keeps reports whether the user ticked the value labelled label.
func (o PlanOptions) keeps(label string) bool {
	if o.KeepPermissions {
		return true
	}
	for _, k := range o.Keep {
		if k == label {
			return true
		}
	}
	return false
}

// ValueNote says how one recorded value is handled on relaunch (the
// "From the app" panel).
type ValueNote struct {
	Label    string `json:"label"`
	Value    string `json:"value"`
	Handling string `json:"handling"`
	// Permissive: the value asks less than the CLI's default, so it is only
	// passed when the user ticks it for this launch (the panel's tick box).
	Permissive bool `json:"permissive,omitempty"`
	// Kept: the value is passed to the CLI on this launch.
	Kept bool `json:"kept,omitempty"`
}

// BranchCheck compares the recorded branch with the folder's branch now.
type BranchCheck struct {
	Recorded string `json:"recorded"`
	Current  string `json:"current"`
	Checked  bool   `json:"checked"` // git answered
	Mismatch bool   `json:"mismatch"`
}

// Plan is a relaunch: run Argv in Folder. When Ask is set the screen shows
// Question with Cancel and "Open anyway" first. Nothing is ever checked out.
type Plan struct {
	SessionKey string      `json:"sessionKey"`
	App        AppID       `json:"app"`
	Folder     string      `json:"folder"`
	Argv       []string    `json:"argv"`
	Warnings   []string    `json:"warnings"`
	Values     []ValueNote `json:"values"`
	Branch     BranchCheck `json:"branch"`
	Ask        bool        `json:"ask"`
	Question   string      `json:"question,omitempty"`
}

// Strict modes: as strict as or stricter than each CLI's default.
var (
	claudeStrictModes = map[string]bool{"default": true, "plan": true}
	codexStrictAsk    = map[string]bool{"untrusted": true, "on-request": true}
	codexStrictBox    = map[string]bool{"read-only": true, "workspace-write": true}
	effortPattern     = lazy.Regexp(`^[a-z]{1,16}$`)
)

// planner builds plans; it holds the injected runner and the help cache.
type planner struct {
	run  Runner
	help *helpCache
}

// plan builds the relaunch of s. Errors: ErrFolderMissing, ErrNotResumable,
// ErrUnsafeValue.
func (p *planner) plan(ctx context.Context, s Session, opts PlanOptions) (Plan, error) {
	pl := Plan{SessionKey: s.Key, App: s.App, Folder: s.Folder, Warnings: []string{}}
	if err := checkFolder(s.Folder); err != nil {
		return pl, err
	}
	if st, err := os.Stat(s.Folder); err != nil || !st.IsDir() {
		return pl, fmt.Errorf("%w: %s — it is not opened anywhere else; restore the folder to resume here", ErrFolderMissing, cleanText(s.Folder, 200))
	}
	id := s.ResumeID
	if err := checkID(id); err != nil {
		return pl, err
	}
	pl.Values = append(pl.Values, ValueNote{Label: "Folder", Value: s.Folder, Handling: "kept: the command runs there", Kept: true})
	switch s.App {
	case ClaudeCode, ClaudeApp:
		pl.Argv = p.claude(ctx, &pl, s, opts, []string{"claude", "--resume", id})
	case CodexCLI, CodexApp:
		pl.Argv = p.codex(ctx, &pl, s, opts, []string{"codex", "resume", id}, true)
	case GeminiCLI, QwenCode:
		if err := geminiNotResumable(s); err != nil {
			return pl, err // prompts only (logs.json), or a chat saved under a tag
		}
		if s.App == QwenCode {
			pl.Argv = []string{"qwen", "--resume", id}
		} else {
			pl.Argv = []string{"gemini", "--resume", id}
		}
	case CopilotCLI:
		pl.Argv = []string{"copilot", "--resume", id}
	case OpenCode:
		pl.Argv = []string{"opencode", "--session", id}
	case Devin:
		pl.Argv = []string{"devin", "--resume", id}
	default:
		if why := StaysInApp(s.App); why != "" {
			return pl, fmt.Errorf("%w: %s", ErrNotResumable, why)
		}
		return pl, fmt.Errorf("%w: open it in %s", ErrNotResumable, s.App.Name())
	}
	p.branch(ctx, &pl, s)
	return pl, nil
}

func (p *planner) claude(ctx context.Context, pl *Plan, s Session, opts PlanOptions, argv []string) []string {
	caps := p.help.get(ctx, p.run, "claude", "--help")
	if !caps.known {
		pl.Warnings = append(pl.Warnings, "Could not read `claude --help`; only the session id is passed.")
	}
	if s.Model != "" {
		switch {
		case !validModel(s.Model):
			pl.note("Model", s.Model, "not passed: not a plain model name")
		case caps.has("--model"):
			argv = append(argv, "--model", s.Model)
			pl.note("Model", s.Model, "kept (--model)")
		default:
			pl.note("Model", s.Model, "shown only: this claude has no --model")
		}
	}
	if s.Effort != "" {
		ok, listed := caps.accepts(s.Effort, "--effort")
		switch {
		case !effortPattern().MatchString(s.Effort):
			pl.note("Effort", s.Effort, "not passed: not a plain effort level")
		case caps.has("--effort") && (ok || !listed):
			argv = append(argv, "--effort", s.Effort)
			pl.note("Effort", s.Effort, "kept (--effort)")
		default:
			pl.note("Effort", s.Effort, "shown only: this claude does not accept it")
		}
	}
	if m := s.Mode; m != "" {
		ok, listed := caps.accepts(m, "--permission-mode")
		// A value the installed claude does not list is never offered as a
		// tick: it could not be passed anyway.
		permissive := validOption(m) && !claudeStrictModes[m] && (ok || !listed)
		switch {
		case !validOption(m):
			pl.note("Approval mode", m, "not passed: not a plain mode name")
		case m == "default" && !ok:
			pl.note("Approval mode", m, "kept: it is claude's default, so nothing is passed")
		case listed && !ok:
			pl.note("Approval mode", m, "not passed: the installed claude does not accept it")
		case permissive && !opts.keeps("Approval mode"):
			pl.note("Approval mode", m, "not passed: it asks less than the default; tick it to keep it for this launch")
		case !ok:
			pl.note("Approval mode", m, "not passed: the installed claude does not accept it")
		default:
			argv = append(argv, "--permission-mode", m)
			pl.note("Approval mode", m, "kept (--permission-mode)")
		}
		pl.Values[len(pl.Values)-1].Permissive = permissive
	}
	return argv
}

func (p *planner) codex(ctx context.Context, pl *Plan, s Session, opts PlanOptions, argv []string, modes bool) []string {
	caps := p.help.get(ctx, p.run, "codex", append(append([]string{}, argv[1:len(argv)-1]...), "--help")...)
	if !caps.known {
		pl.Warnings = append(pl.Warnings, "Could not read `codex "+strings.Join(argv[1:len(argv)-1], " ")+" --help`; only the session id is passed.")
	}
	if s.Model != "" {
		switch {
		case !validModel(s.Model):
			pl.note("Model", s.Model, "not passed: not a plain model name")
		case caps.has("-m", "--model"):
			argv = append(argv, "-m", s.Model)
			pl.note("Model", s.Model, "kept (-m)")
		default:
			pl.note("Model", s.Model, "shown only: this codex has no -m here")
		}
	}
	if s.Effort != "" {
		switch {
		case !effortPattern().MatchString(s.Effort):
			pl.note("Effort", s.Effort, "not passed: not a plain effort level")
		case caps.has("-c", "--config"):
			argv = append(argv, "-c", `model_reasoning_effort="`+s.Effort+`"`)
			pl.note("Effort", s.Effort, "kept (-c model_reasoning_effort)")
		default:
			pl.note("Effort", s.Effort, "shown only: this codex has no -c here")
		}
	}
	if !modes {
		return argv
	}
	argv = codexMode(pl, caps, argv, "Approval", s.Mode, codexStrictAsk, opts, "-a", "--ask-for-approval")
	argv = codexMode(pl, caps, argv, "Sandbox", s.Sandbox, codexStrictBox, opts, "-s", "--sandbox")
	return argv
}

func codexMode(pl *Plan, caps cliCaps, argv []string, label, v string, strict map[string]bool, opts PlanOptions, short, long string) []string {
	if v == "" {
		return argv
	}
	ok, listed := caps.accepts(v, short, long)
	permissive := validOption(v) && !strict[v] && (ok || !listed)
	defer func() { pl.Values[len(pl.Values)-1].Permissive = permissive }()
	switch {
	case !validOption(v):
		pl.note(label, v, "not passed: not a plain mode name")
	case listed && !ok:
		// e.g. Codex 0.169's "managed" permission profiles, or "untrusted",
		// which `codex resume -a` no longer takes.
		pl.note(label, v, "not passed: the installed codex does not accept it here; its default applies")
	case permissive && !opts.keeps(label):
		pl.note(label, v, "not passed: it asks less than the default; tick it to keep it for this launch")
	case !ok:
		pl.note(label, v, "not passed: the installed codex does not accept it here; its default applies")
	default:
		pl.note(label, v, "kept ("+short+")")
		return append(argv, short, v)
	}
	return argv
}

func (pl *Plan) note(label, value, handling string) {
	pl.Values = append(pl.Values, ValueNote{Label: label, Value: cleanText(value, 120), Handling: handling,
		Kept: strings.HasPrefix(handling, "kept")})
}

// branch compares the recorded branch with the folder's; a mismatch asks.
func (p *planner) branch(ctx context.Context, pl *Plan, s Session) {
	pl.Branch.Recorded = s.Branch
	if s.Branch == "" {
		return
	}
	if s.Branch == "HEAD" {
		// Claude Code records "HEAD" for a detached HEAD or a repository
		// without commits: there is no branch to compare.
		pl.note("Branch", s.Branch, "not compared: the session ran on no branch (detached HEAD)")
		return
	}
	out, err := p.run.Output(ctx, s.Folder, "git", "-C", s.Folder, "rev-parse", "--abbrev-ref", "HEAD")
	cur := strings.TrimSpace(string(out))
	if err != nil || cur == "" || strings.Contains(cur, "\n") {
		pl.Warnings = append(pl.Warnings, "Could not read the folder's git branch; the recorded branch was "+cleanText(s.Branch, 120)+".")
		pl.note("Branch", s.Branch, "not compared: the folder's branch could not be read")
		return
	}
	pl.Branch.Checked, pl.Branch.Current = true, cur
	if cur == s.Branch {
		pl.note("Branch", s.Branch, "matches the folder's branch")
		return
	}
	pl.Branch.Mismatch, pl.Ask = true, true
	pl.Question = "This session was on " + cleanText(s.Branch, 120) + "; the folder is on " + cleanText(cur, 120) + " now."
	pl.note("Branch", s.Branch, "differs from the folder's branch ("+cleanText(cur, 120)+"); nothing is checked out")
}

// continueArgv builds "Continue here": the session continued headless
// inside the app's chat, forked so the session's own file is never
// written. The prompt goes on stdin, never in argv.
func (p *planner) continueArgv(ctx context.Context, s Session) ([]string, error) {
	if err := checkID(s.ResumeID); err != nil {
		return nil, err
	}
	var pl Plan
	switch s.App {
	case ClaudeCode, ClaudeApp:
		argv := []string{"claude", "-p", "--resume", s.ResumeID, "--fork-session"}
		if s.Model != "" && validModel(s.Model) {
			argv = append(argv, "--model", s.Model)
		}
		return argv, nil
	case CodexCLI, CodexApp:
		// codex exec has no -a: approvals cannot be asked headless.
		return p.codex(ctx, &pl, s, PlanOptions{}, []string{"codex", "exec", "fork", s.ResumeID}, false), nil
	}
	return nil, fmt.Errorf("%w: only Claude Code and Codex sessions continue in the app's chat", ErrNotResumable)
}
