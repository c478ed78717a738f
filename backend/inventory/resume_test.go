package inventory

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeRunner answers --help and git like the real CLIs (help text shaped
// like Claude Code 2.1.328's commander output and Codex 0.169's clap output)
// and records every call.
type fakeRunner struct {
	mu     sync.Mutex
	calls  []string
	branch string // what git reports; "" makes git fail
	help   map[string]string
}

const claudeHelp = `Usage: claude [options] [command] [prompt]

Options:
  -d, --debug [filter]              Enable debug mode
  --permission-mode <mode>          Permission mode to use for the session (choices: "acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan")
  --model <model>                   Model for the current session
  --effort <level>                  Effort level for the session (choices: "low", "medium", "high", "xhigh", "max")
  -r, --resume [value]              Resume a conversation by session ID
  -h, --help                        Display help for command
`

const codexResumeHelp = `Resume a previous interactive session

Usage: codex resume [OPTIONS] [SESSION_ID] [PROMPT]

Options:
  -c, --config <key=value>
          Override a configuration value that would otherwise be loaded from ~/.codex/config.toml
  -m, --model <MODEL>
          Model the agent should use
  -s, --sandbox <SANDBOX_MODE>
          Select the sandbox policy to use when executing model-generated shell commands
          [possible values: read-only, workspace-write, danger-full-access]
  -a, --ask-for-approval <APPROVAL_POLICY>
          Configure when the model requires human approval before executing a command

          Possible values:
          - on-request: The model decides when to ask the user for approval
          - never:      Never ask the user to approve commands
  -h, --help
          Print help (see a summary with '-h')
`

const codexExecResumeHelp = `Usage: codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]

Options:
  -c, --config <key=value>  Override a configuration value
  -m, --model <MODEL>       Model the agent should use
  -h, --help                Print help
`

func (f *fakeRunner) Output(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	call := filepath.Base(name) + " " + strings.Join(args, " ")
	f.calls = append(f.calls, call)
	if filepath.Base(name) == "git" {
		if f.branch == "" {
			return []byte("fatal: not a git repository"), errors.New("exit status 128")
		}
		return []byte(f.branch + "\n"), nil
	}
	help := f.help
	if help == nil {
		help = map[string]string{"claude --help": claudeHelp, "codex resume --help": codexResumeHelp, "codex exec resume --help": codexExecResumeHelp, "codex exec fork --help": codexExecResumeHelp}
	}
	if h, ok := help[call]; ok {
		return []byte(h), nil
	}
	return nil, fmt.Errorf("unknown command %q", call)
}

func (f *fakeRunner) LookPath(name string) (string, error) { return "/fake/bin/" + name, nil }

func (f *fakeRunner) count(prefix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

func planFor(t *testing.T, s Session, opts PlanOptions, r *fakeRunner) (Plan, error) {
	t.Helper()
	if s.Folder == "" {
		s.Folder = t.TempDir()
	}
	s.finish()
	p := &planner{run: r, help: &helpCache{}}
	return p.plan(context.Background(), s, opts)
}

func TestPlanResumeFlagRules(t *testing.T) {
	const id = "c5e1a7b2-9d40-4f3e-8b16-2a7c0e9d4f58"
	cases := []struct {
		name string
		s    Session
		opts PlanOptions
		want string // argv after the program name
	}{
		{"claude bare", Session{App: ClaudeCode, ID: id}, PlanOptions{}, "--resume " + id},
		{"claude model and effort", Session{App: ClaudeCode, ID: id, Model: "claude-opus-4-5", Effort: "high"}, PlanOptions{}, "--resume " + id + " --model claude-opus-4-5 --effort high"},
		{"claude plan is strict: passed", Session{App: ClaudeCode, ID: id, Mode: "plan"}, PlanOptions{}, "--resume " + id + " --permission-mode plan"},
		{"claude default: not listed by this claude, its default applies", Session{App: ClaudeCode, ID: id, Mode: "default"}, PlanOptions{}, "--resume " + id},
		{"claude acceptEdits asks less: held back", Session{App: ClaudeCode, ID: id, Mode: "acceptEdits"}, PlanOptions{}, "--resume " + id},
		{"claude bypassPermissions held back", Session{App: ClaudeCode, ID: id, Mode: "bypassPermissions"}, PlanOptions{}, "--resume " + id},
		{"claude acceptEdits ticked", Session{App: ClaudeCode, ID: id, Mode: "acceptEdits"}, PlanOptions{KeepPermissions: true}, "--resume " + id + " --permission-mode acceptEdits"},
		{"claude ticked but not accepted by this claude", Session{App: ClaudeCode, ID: id, Mode: "yolo"}, PlanOptions{KeepPermissions: true}, "--resume " + id},
		{"claude effort not in choices", Session{App: ClaudeCode, ID: id, Effort: "ultra"}, PlanOptions{}, "--resume " + id},
		{"claude app resumes its Claude Code session", Session{App: ClaudeApp, ID: "local_1", ResumeID: id, Model: "opus"}, PlanOptions{}, "--resume " + id + " --model opus"},
		{"codex bare", Session{App: CodexCLI, ID: "019a2f1c-7d0e-7b31-9c4e-5a1f0e2d8b63"}, PlanOptions{}, "resume 019a2f1c-7d0e-7b31-9c4e-5a1f0e2d8b63"},
		{"codex model effort on-request workspace-write", Session{App: CodexCLI, ID: "t1", Model: "gpt-5.3-codex", Effort: "high", Mode: "on-request", Sandbox: "workspace-write"}, PlanOptions{},
			`resume t1 -m gpt-5.3-codex -c model_reasoning_effort="high" -a on-request -s workspace-write`},
		{"codex untrusted is strict but codex 0.169 resume rejects it", Session{App: CodexCLI, ID: "t1", Mode: "untrusted"}, PlanOptions{}, "resume t1"},
		{"codex never held back", Session{App: CodexApp, ID: "t1", Mode: "never"}, PlanOptions{}, "resume t1"},
		{"codex never ticked", Session{App: CodexApp, ID: "t1", Mode: "never"}, PlanOptions{KeepPermissions: true}, "resume t1 -a never"},
		{"codex read-only passed", Session{App: CodexCLI, ID: "t1", Sandbox: "read-only"}, PlanOptions{}, "resume t1 -s read-only"},
		{"codex danger-full-access held back", Session{App: CodexCLI, ID: "t1", Sandbox: "danger-full-access"}, PlanOptions{}, "resume t1"},
		{"codex danger-full-access ticked", Session{App: CodexCLI, ID: "t1", Sandbox: "danger-full-access"}, PlanOptions{KeepPermissions: true}, "resume t1 -s danger-full-access"},
		{"codex on-failure ticked but not accepted", Session{App: CodexCLI, ID: "t1", Mode: "on-failure"}, PlanOptions{KeepPermissions: true}, "resume t1"},
		{"gemini", Session{App: GeminiCLI, ID: "g-1"}, PlanOptions{}, "--resume g-1"},
		{"opencode", Session{App: OpenCode, ID: "ses_469cf929cffeBICghRNeI7BWy6"}, PlanOptions{}, "--session ses_469cf929cffeBICghRNeI7BWy6"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := planFor(t, c.s, c.opts, &fakeRunner{})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(p.Argv[1:], " "); got != c.want {
				t.Fatalf("argv %q\nwant  %q\nnotes %+v", got, c.want, p.Values)
			}
		})
	}
}

func TestPlanResumeRefusesInjection(t *testing.T) {
	bad := []string{"--dangerously-skip-permissions", "-rf", "x; rm -rf ~", "$(touch /tmp/p)", "a b", "id\nrm", "id\x1b[2J", "`id`", "a|b", "../../etc", ""}
	for _, v := range bad {
		t.Run("id "+v, func(t *testing.T) {
			_, err := planFor(t, Session{App: ClaudeCode, ID: v}, PlanOptions{}, &fakeRunner{})
			if !errors.Is(err, ErrUnsafeValue) {
				t.Fatalf("id %q: %v, want ErrUnsafeValue", v, err)
			}
		})
		t.Run("values "+v, func(t *testing.T) {
			r := &fakeRunner{}
			for _, app := range []AppID{ClaudeCode, CodexCLI} {
				p, err := planFor(t, Session{App: app, ID: "ok-1", Model: v, Effort: v, Mode: v, Sandbox: v}, PlanOptions{KeepPermissions: true}, r)
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Argv) != 3 {
					t.Fatalf("%s: untrusted value %q reached argv %q", app, v, p.Argv)
				}
			}
		})
	}
	for _, f := range []string{"relative/dir", "/tmp/a\nb", "/tmp/\x1b[31m"} {
		if _, err := planFor(t, Session{App: ClaudeCode, ID: "ok", Folder: f}, PlanOptions{}, &fakeRunner{}); !errors.Is(err, ErrUnsafeValue) {
			t.Errorf("folder %q: %v, want ErrUnsafeValue", f, err)
		}
	}
}

func TestPlanResumeFolderMissing(t *testing.T) {
	_, err := planFor(t, Session{App: ClaudeCode, ID: "ok", Folder: "/nonexistent/shop-api"}, PlanOptions{}, &fakeRunner{})
	if !errors.Is(err, ErrFolderMissing) || !strings.Contains(err.Error(), "/nonexistent/shop-api") {
		t.Fatalf("got %v", err)
	}
}

func TestPlanResumeBranch(t *testing.T) {
	cases := []struct {
		name, recorded, current string
		ask                     bool
		question                string
	}{
		{"mismatch asks", "fix/checkout-retry", "main", true, "This session was on fix/checkout-retry; the folder is on main now."},
		{"match", "main", "main", false, ""},
		{"not a repo", "main", "", false, ""},
		{"hostile branch is shown clean", "x\x1b[31m\nevil", "main", true, "This session was on x [31m evil; the folder is on main now."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &fakeRunner{branch: c.current}
			dir := t.TempDir()
			p, err := planFor(t, Session{App: ClaudeCode, ID: "ok", Folder: dir, Branch: c.recorded}, PlanOptions{}, r)
			if err != nil {
				t.Fatal(err)
			}
			if p.Ask != c.ask || p.Question != c.question {
				t.Fatalf("ask %v %q, want %v %q", p.Ask, p.Question, c.ask, c.question)
			}
			if r.count("git -C "+dir+" rev-parse --abbrev-ref HEAD") != 1 {
				t.Fatalf("git calls: %v", r.calls)
			}
			for _, call := range r.calls {
				if strings.Contains(call, "checkout") || strings.Contains(call, "switch") {
					t.Fatalf("never check out: %s", call)
				}
			}
		})
	}
}

func TestHelpReadOncePerBinary(t *testing.T) {
	r := &fakeRunner{}
	p := &planner{run: r, help: &helpCache{}}
	for i := 0; i < 3; i++ {
		s := Session{App: ClaudeCode, ID: "ok", Folder: t.TempDir(), Model: "opus"}
		s.finish()
		if _, err := p.plan(context.Background(), s, PlanOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := r.count("claude --help"); n != 1 {
		t.Fatalf("claude --help ran %d times", n)
	}
}

func TestContinueArgv(t *testing.T) {
	p := &planner{run: &fakeRunner{}, help: &helpCache{}}
	cases := []struct {
		s    Session
		want string
	}{
		{Session{App: ClaudeCode, ID: "abc", Model: "opus", Mode: "bypassPermissions"}, "claude -p --resume abc --fork-session --model opus"},
		{Session{App: CodexCLI, ID: "t1", Model: "gpt-5", Mode: "never", Sandbox: "danger-full-access"}, "codex exec fork t1 -m gpt-5"},
	}
	for _, c := range cases {
		c.s.finish()
		argv, err := p.continueArgv(context.Background(), c.s)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(argv, " "); got != c.want {
			t.Errorf("got %q want %q", got, c.want)
		}
	}
	s := Session{App: Cursor, ID: "x"}
	s.finish()
	if _, err := p.continueArgv(context.Background(), s); !errors.Is(err, ErrNotResumable) {
		t.Fatalf("cursor: %v", err)
	}
}

func TestParseHelp(t *testing.T) {
	c := parseHelp(codexResumeHelp)
	if ok, listed := c.accepts("never", "-a"); !ok || !listed {
		t.Fatal("never should be accepted by -a")
	}
	if ok, _ := c.accepts("untrusted", "-a"); ok {
		t.Fatal("codex 0.169 resume -a does not accept untrusted")
	}
	if ok, _ := c.accepts("workspace-write", "--sandbox"); !ok {
		t.Fatal("sandbox values")
	}
	cl := parseHelp(claudeHelp)
	if ok, _ := cl.accepts("dontAsk", "--permission-mode"); !ok || !cl.has("--model", "--effort") {
		t.Fatalf("claude help: %+v", cl)
	}
}
