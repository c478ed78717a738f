package record

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemcp"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// headlessScenario is one headless run: a script for the fake model and the
// CLI arguments (after the binary) given the env.
type headlessScenario struct {
	name  string
	env   []string // extra environment
	turns func(env *agentenv.Env) []fakemodel.Turn
	// args gets the URL of a fake MCP server ("osfoundry") when mcp is set.
	args func(env *agentenv.Env, mcpURL string) []string
	mcp  bool
}

// mcpToken is the fake bridge's bearer token in recordings.
const mcpToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// MarkerCommand's output proves a tool really ran a shell (the shell
// computes 42; the script never contains it).
const MarkerCommand = "echo osf-marker-$((6*7))"

var claudeHeadless = []headlessScenario{
	textScenario(ClaudeStreamArgs("Say hello")),
	toolsScenario([]string{agentenv.ClaudeBypassAsRoot},
		fakemodel.ClaudeBash(MarkerCommand, "Print a marker"),
		func(hello string) fakemodel.Turn { return fakemodel.ClaudeWrite(hello, "hello from claude\n") },
		ClaudeStreamArgs("Print the marker, then write hello.txt", "--permission-mode", "bypassPermissions")),
	{"mcp", []string{agentenv.ClaudeBypassAsRoot},
		func(*agentenv.Env) []fakemodel.Turn {
			return []fakemodel.Turn{
				fakemodel.ClaudeMCP("osfoundry", "memory_search", map[string]any{"query": "release notes"}),
				fakemodel.Text("Found it."),
			}
		},
		func(_ *agentenv.Env, url string) []string {
			cfg := fmt.Sprintf(`{"mcpServers":{"osfoundry":{"type":"http","url":%q,"headers":{"Authorization":"Bearer %s"},"timeout":120000}}}`, url, mcpToken)
			return ClaudeStreamArgs("Search my memory", "--permission-mode", "bypassPermissions",
				"--mcp-config", cfg, "--strict-mcp-config")
		}, true},
}

var codexHeadless = []headlessScenario{
	textScenario(CodexExecArgs("Say hello")),
	toolsScenario(nil, fakemodel.CodexExec(MarkerCommand),
		// A path relative to the work folder, as Codex's patches name files.
		func(string) fakemodel.Turn { return fakemodel.CodexAddFile("hello.txt", "hello from codex") },
		CodexExecArgs("Print the marker, then write hello.txt", "-s", "workspace-write", "-c", `approval_policy="never"`)),
	{"mcp", nil,
		func(*agentenv.Env) []fakemodel.Turn {
			return []fakemodel.Turn{
				fakemodel.CodexToolSearch("memory search"),
				fakemodel.CodexMCP("osfoundry", "memory_search", map[string]any{"query": "release notes"}),
				fakemodel.Text("Found it."),
			}
		},
		func(_ *agentenv.Env, url string) []string {
			return CodexExecArgs("Search my memory", "--dangerously-bypass-approvals-and-sandbox",
				"-c", fmt.Sprintf("mcp_servers.osfoundry.url=%q", url),
				"-c", fmt.Sprintf(`mcp_servers.osfoundry.http_headers={Authorization="Bearer %s"}`, mcpToken))
		}, true},
}

// ClaudeStreamArgs are the headless stream-json flags the app's worker uses.
func ClaudeStreamArgs(prompt string, extra ...string) []string {
	return append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--include-partial-messages"}, extra...)
}

// CodexExecArgs are the headless exec flags the app's worker uses.
func CodexExecArgs(prompt string, extra ...string) []string {
	return append([]string{"exec", prompt, "--json", "--skip-git-repo-check"}, extra...)
}

// RecordClaudeHeadless records `claude -p … --output-format stream-json`.
func RecordClaudeHeadless(r *Run, prefix string) error {
	return recordHeadless(r, prefix, agentenv.NewClaude, claudeHeadless)
}

// RecordCodexHeadless records `codex exec --json`.
func RecordCodexHeadless(r *Run, prefix string) error {
	return recordHeadless(r, prefix, agentenv.NewCodex, codexHeadless)
}

func recordHeadless(r *Run, prefix string, build func(agentenv.Options) (*agentenv.Env, error), scenarios []headlessScenario) error {
	for _, sc := range scenarios {
		name := prefix + "." + sc.name
		srv, err := fakemodel.New()
		if err != nil {
			return err
		}
		env, err := build(agentenv.Options{ModelURL: srv.URL, Base: r.tempBase(name), Extra: sc.env})
		if err != nil {
			srv.Close()
			return err
		}
		srv.Push(sc.turns(env)...)
		var mcpSrv *fakemcp.Server
		mcpURL := ""
		if sc.mcp {
			if mcpSrv, err = fakemcp.New(mcpToken); err != nil {
				return err
			}
			mcpURL = mcpSrv.URL
		}
		err = runHeadless(r, name, env, sc.args(env, mcpURL))
		if mcpSrv != nil {
			mcpSrv.Close()
			if err == nil && len(mcpSrv.Calls()) != 1 {
				err = fmt.Errorf("%s: the CLI made %d MCP calls, want 1", name, len(mcpSrv.Calls()))
			}
		}
		if err == nil {
			err = r.copyStores(name, env)
		}
		r.cleanup(env)
		srv.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func runHeadless(r *Run, name string, env *agentenv.Env, args []string) error {
	stdout, stderr, err := env.Output(2*time.Minute, args...)
	if err != nil {
		return err
	}
	if len(stdout) == 0 {
		return fmt.Errorf("running %s %v: no output; stderr:\n%s", env.Agent, args, stderr)
	}
	return r.WriteFixture(name+".jsonl", stdout)
}

// geminiLikeHeadless: Gemini CLI and Qwen Code share flags and tool names.
func geminiLikeHeadless(command string) []headlessScenario {
	args := func(prompt string, extra ...string) []string {
		return append([]string{"-p", prompt, "--output-format", "stream-json"}, extra...)
	}
	return []headlessScenario{
		textScenario(args("Say hello")),
		toolsScenario(nil,
			fakemodel.Tool("run_shell_command", map[string]any{"command": command, "description": "Print a marker"}),
			func(hello string) fakemodel.Turn {
				return fakemodel.Tool("write_file", map[string]any{"file_path": hello, "content": "hello\n"})
			},
			args("Print the marker, then write hello.txt", "--approval-mode", "yolo")),
	}
}

// RecordGeminiHeadless records `gemini -p … --output-format stream-json`.
func RecordGeminiHeadless(r *Run, prefix string) error {
	return recordHeadless(r, prefix, agentenv.NewGemini, geminiLikeHeadless("seq 41 42 | tail -n 1 | sed s/^/osf-marker-/"))
}

// RecordQwenHeadless records `qwen -p … --output-format stream-json`.
func RecordQwenHeadless(r *Run, prefix string) error {
	return recordHeadless(r, prefix, agentenv.NewQwen, geminiLikeHeadless(MarkerCommand))
}

// RecordOpencodeHeadless records `opencode run … --format json`.
func RecordOpencodeHeadless(r *Run, prefix string) error {
	args := func(prompt string) []string { return []string{"run", prompt, "--format", "json"} }
	return recordHeadless(r, prefix, agentenv.NewOpencode, []headlessScenario{
		textScenario(args("Say hello")),
		toolsScenario(nil,
			fakemodel.Tool("bash", map[string]any{"command": MarkerCommand, "description": "Print a marker"}),
			func(hello string) fakemodel.Turn {
				return fakemodel.Tool("write", map[string]any{"filePath": hello, "content": "hello\n"})
			},
			args("Print the marker, then write hello.txt")),
	})
}

// RecordCopilotHeadless records `copilot -p … --output-format json`.
func RecordCopilotHeadless(r *Run, prefix string) error {
	args := func(prompt string, extra ...string) []string {
		return append([]string{"-p", prompt, "--output-format", "json"}, extra...)
	}
	return recordHeadless(r, prefix, agentenv.NewCopilot, []headlessScenario{
		textScenario(args("Say hello")),
		toolsScenario(nil,
			fakemodel.Tool("bash", map[string]any{"command": MarkerCommand, "description": "Print a marker"}),
			func(hello string) fakemodel.Turn {
				return fakemodel.Tool("create", map[string]any{"path": hello, "file_text": "hello\n"})
			},
			args("Print the marker, then write hello.txt", "--allow-all-tools")),
	})
}

// textScenario: one plain answer, no tools.
func textScenario(args []string) headlessScenario {
	return headlessScenario{name: "text",
		turns: func(*agentenv.Env) []fakemodel.Turn {
			return []fakemodel.Turn{fakemodel.Text("Hello from the fake model.")}
		},
		args: func(*agentenv.Env, string) []string { return args }}
}

// toolsScenario: shell prints the marker, write makes hello.txt (given its
// path in the work folder), then a last answer; args approve both up front.
func toolsScenario(env []string, shell fakemodel.Turn, write func(hello string) fakemodel.Turn, args []string) headlessScenario {
	return headlessScenario{name: "tools", env: env,
		turns: func(e *agentenv.Env) []fakemodel.Turn {
			return []fakemodel.Turn{shell, write(filepath.Join(e.Work, "hello.txt")), fakemodel.Text("All done.")}
		},
		args: func(*agentenv.Env, string) []string { return args }}
}
