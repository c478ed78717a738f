package record

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemcp"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// The first-run dialogs: what a CLI asks before any turn when it starts in
// a folder it has not seen (folder trust, a project's MCP servers), and the
// permission prompts of MCP tools and web fetches. The agent waits for the
// user just as at a tool prompt, so they are recorded into the same fixture
// set (<agent>[-renderer]-<version>.blocked.trust, …) by their own jobs.

// dialogSuffix marks a dialog job's name; the fixtures drop it.
const dialogSuffix = "-dialogs"

// dialogJobs are the dialog recordings, one per agent and renderer.
func dialogJobs() []Job {
	var jobs []Job
	for _, rd := range ClaudeRenderers {
		env := rd.Env
		jobs = append(jobs, Job{Name: "claude" + rd.Variant + dialogSuffix, Agent: "claude",
			Record: func(r *Run, p string) error { return RecordClaudeDialogs(r, p, env) }})
	}
	for _, v := range CodexScreens {
		args := v.Args
		jobs = append(jobs, Job{Name: "codex" + v.Variant + dialogSuffix, Agent: "codex",
			Record: func(r *Run, p string) error { return RecordCodexTrust(r, p, args) }})
	}
	return append(jobs,
		Job{Name: "qwen" + dialogSuffix, Agent: "qwen", Record: func(r *Run, p string) error {
			return recordGeminiTrust(r, p, agentenv.NewQwen, []string{"--approval-mode", "default"})
		}},
		Job{Name: "gemini" + dialogSuffix, Agent: "gemini", Record: func(r *Run, p string) error {
			return recordGeminiTrust(r, p, agentenv.NewGemini, nil)
		}},
	)
}

// dialogFixture is the fixture prefix of a dialog job's recording:
// "claude-dialogs-2.1.328" records claude-2.1.328.blocked.trust.
func dialogFixture(name string) string { return strings.Replace(name, dialogSuffix+"-", "-", 1) }

// Screen texts of the dialogs the recorder waits for.
var (
	folderTrust     = regexp.MustCompile(`(?i)trust (this|the files in this) folder`)
	claudeMCPServer = regexp.MustCompile(`(?i)new MCP server`)
	claudeFetch     = regexp.MustCompile(`(?i)fetch`)
	claudeFound     = regexp.MustCompile(`Found the release notes`)
	codexTrust      = regexp.MustCompile(`(?i)trust`)
)

// mcpServerName is the project MCP server the Claude dialogs record.
const mcpServerName = "osfoundry"

// RecordClaudeDialogs records Claude Code's folder-trust dialog in an
// untrusted folder, then, in a trusted folder whose .mcp.json names a
// server, the server approval, an MCP tool's prompt and WebFetch's prompt.
func RecordClaudeDialogs(r *Run, name string, extraEnv []string) error {
	fixture := dialogFixture(name)
	trust := tuiSpec{build: agentenv.NewClaude, args: []string{"--permission-mode", "default"}, env: extraEnv,
		untrusted: true, fixture: fixture}
	err := recordTUI(r, name+"-trust", trust, func(t *tui) []step {
		s := t.s
		return []step{
			func() error { return s.WaitSave(folderTrust, long, "blocked.trust") },
			// 2.1.328 selects "No, exit"; "Yes, I trust this folder" is below.
			func() error { return s.Send("\x1b[B") },
			func() error { time.Sleep(300 * time.Millisecond); return s.Send("\r") },
			func() error { return s.WaitGone(folderTrust, long) },
			func() error { return s.WaitSave(claudeIdle, long, "after-answer.trust") },
		}
	})
	if err != nil {
		return err
	}
	mcp, err := fakemcp.New(mcpToken)
	if err != nil {
		return err
	}
	defer mcp.Close()
	spec := tuiSpec{build: agentenv.NewClaude, args: []string{"--permission-mode", "default"}, env: extraEnv,
		fixture: fixture, setup: func(env *agentenv.Env) error { return writeMCPJSON(env.Work, mcp) }}
	return recordTUI(r, name+"-mcp", spec, func(t *tui) []step {
		s := t.s
		return []step{
			func() error { return s.WaitSave(claudeMCPServer, long, "blocked.mcp-server") },
			// "Continue without using this MCP server" is selected; "Use this
			// MCP server" is two lines up.
			func() error { return s.Send("\x1b[A") },
			func() error { time.Sleep(200 * time.Millisecond); return s.Send("\x1b[A") },
			func() error { time.Sleep(300 * time.Millisecond); return s.Send("\r") },
			func() error { return s.WaitGone(claudeMCPServer, long) },
			func() error { return s.WaitSave(claudeIdle, long, "after-answer.mcp-server") },
			func() error {
				// Claude Code defers MCP tools behind ToolSearch.
				t.srv.Push(fakemodel.ClaudeToolSearch(fakemodel.MCPName(mcpServerName, "memory_search")),
					fakemodel.ClaudeMCP(mcpServerName, "memory_search", map[string]any{"query": "release notes"}),
					fakemodel.Text("Found the release notes."))
				return t.typ("Search my memory for the release notes")
			},
			func() error { return s.WaitSave(claudeAnyPrompt, long, "blocked.mcp-tool") },
			func() error { return s.Send("\r") },
			func() error { return s.WaitGone(claudeAnyPrompt, long) },
			func() error { return s.Wait(claudeFound, long) },
			func() error { return s.WaitSave(claudeIdle, long, "after-answer.mcp-tool") },
			func() error {
				t.srv.Push(fakemodel.Tool("WebFetch", map[string]any{
					"url": "https://example.com/release-notes", "prompt": "Summarise the release notes"}))
				return t.typ("Read the release notes page")
			},
			func() error { return s.Wait(claudeFetch, long) },
			func() error { return s.WaitSave(claudeAnyPrompt, long, "blocked.webfetch") },
		}
	})
}

// writeMCPJSON writes a project .mcp.json naming the fake MCP server.
func writeMCPJSON(work string, mcp *fakemcp.Server) error {
	cfg := fmt.Sprintf(`{"mcpServers":{%q:{"type":"http","url":%q,"headers":{"Authorization":"Bearer %s"}}}}`+"\n",
		mcpServerName, mcp.URL, mcpToken)
	if err := os.WriteFile(filepath.Join(work, ".mcp.json"), []byte(cfg), 0o600); err != nil {
		return fmt.Errorf("writing .mcp.json: %w", err)
	}
	return nil
}

// RecordCodexTrust records Codex's prompt about an untrusted folder on start
// and the idle screen once it is answered.
func RecordCodexTrust(r *Run, name string, args []string) error {
	// No sandbox or approval flags: Codex skips the prompt when the command
	// line already says what it may do.
	spec := tuiSpec{build: agentenv.NewCodex, args: append([]string{"--no-daemon"}, args...),
		untrusted: true, fixture: dialogFixture(name), setup: codexProject}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		return []step{
			func() error { return s.WaitSave(codexTrust, long, "blocked.trust") },
			func() error { return s.Send("\r") },
			func() error { return s.WaitGone(codexTrust, long) },
			func() error { return s.WaitSave(codexIdle, long, "after-answer.trust") },
		}
	})
}

// recordGeminiTrust records the folder-trust dialog of a Gemini-lineage CLI
// with folder trust on, and the idle screen once the folder is trusted.
func recordGeminiTrust(r *Run, name string, build func(agentenv.Options) (*agentenv.Env, error), args []string) error {
	spec := tuiSpec{build: build, args: args, untrusted: true, fixture: dialogFixture(name)}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		return []step{
			func() error { return s.WaitSave(folderTrust, long, "blocked.trust") },
			func() error { return s.Send("\r") },
			// Gemini CLI restarts to apply the trust and leaves the answered
			// dialog on screen above its new prompt (Qwen Code clears it):
			// the composer coming back is the answer taking effect.
			func() error { return s.WaitSave(qwenIdle, long, "after-answer.trust") },
		}
	})
}

// codexProject makes the work folder a git repository, as the folders a user
// opens Codex in usually are.
func codexProject(env *agentenv.Env) error {
	cmd := exec.Command("git", "init", "-q", env.Work)
	cmd.Env = env.Env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %w: %s", err, out)
	}
	return nil
}
