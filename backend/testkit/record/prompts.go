package record

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemcp"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// The rarer prompts: an edit of a file that already exists, a web fetch, a
// question menu and an MCP tool call, for the agents whose main flow does
// not reach them. Each is recorded by its own job into the agent's fixture
// set (<agent>[-renderer]-<version>.blocked.edit, …), the prompt and, where
// it is answered, the screen after the answer.

// promptsSuffix marks a prompts job's name; the fixtures drop it.
const promptsSuffix = "-prompts"

// promptsFixture is the fixture prefix of a prompts job's recording:
// "gemini-prompts-0.61.0" records gemini-0.61.0.blocked.edit.
func promptsFixture(name string) string { return strings.Replace(name, promptsSuffix+"-", "-", 1) }

// promptJobs are the prompts recordings, one per agent and screen mode.
func promptJobs() []Job {
	jobs := []Job{
		{Name: "gemini" + promptsSuffix, Agent: "gemini", Record: func(r *Run, p string) error {
			return recordGeminiPrompts(r, p, agentenv.NewGemini, nil, geminiEdit, geminiFetch)
		}},
		{Name: "qwen" + promptsSuffix, Agent: "qwen", Record: func(r *Run, p string) error {
			return recordGeminiPrompts(r, p, agentenv.NewQwen, []string{"--approval-mode", "default"}, qwenEdit, qwenFetch)
		}},
		{Name: "opencode" + promptsSuffix, Agent: "opencode", Record: RecordOpencodePrompts},
		{Name: "copilot" + promptsSuffix, Agent: "copilot", Record: RecordCopilotPrompts},
	}
	for _, v := range CodexScreens {
		args := v.Args
		jobs = append(jobs, Job{Name: "codex" + v.Variant + promptsSuffix, Agent: "codex",
			Record: func(r *Run, p string) error { return RecordCodexMCP(r, p, args) }})
	}
	return jobs
}

// notesFile is the file every edit flow changes: it exists before the CLI
// starts, so the prompt is an edit's, not a new file's.
const (
	notesFile   = "notes.txt"
	notesBefore = "hello from the notes\n"
)

// Screen texts of the prompts flows.
var (
	notesEdited  = regexp.MustCompile(`I updated notes\.txt`)
	geminiAsk    = regexp.MustCompile(`Allow execution|Apply this change|Allow once|Do you want to proceed|Waiting for user`)
	releaseNotes = "https://example.com/release-notes"
)

// writeNotes is a tuiSpec setup: the file the edit flows change.
func writeNotes(env *agentenv.Env) error {
	if err := os.WriteFile(filepath.Join(env.Work, notesFile), []byte(notesBefore), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", notesFile, err)
	}
	return nil
}

// editTurns makes the edit turn of a CLI given the file's absolute path.
type editTurns func(path string) []fakemodel.Turn

func geminiEdit(path string) []fakemodel.Turn {
	return []fakemodel.Turn{fakemodel.Tool("replace", map[string]any{"file_path": path,
		"instruction": "Change the greeting in the notes", "old_string": "hello from the notes",
		"new_string": "hello again from the notes"})}
}

// Qwen Code refuses to edit a file the session has not read.
func qwenEdit(path string) []fakemodel.Turn {
	return []fakemodel.Turn{fakemodel.Tool("read_file", map[string]any{"file_path": path}), fakemodel.Tool("edit", map[string]any{"file_path": path,
		"old_string": "hello from the notes", "new_string": "hello again from the notes"})}
}

// Gemini CLI's web_fetch takes the URLs inside its prompt.
func geminiFetch() []fakemodel.Turn {
	return []fakemodel.Turn{fakemodel.Tool("web_fetch", map[string]any{
		"prompt": "Summarise the release notes at " + releaseNotes})}
}

// Qwen Code defers web_fetch behind tool_search.
func qwenFetch() []fakemodel.Turn {
	return []fakemodel.Turn{
		fakemodel.Tool("tool_search", map[string]any{"query": "select:web_fetch", "max_results": 1}),
		fakemodel.Tool("web_fetch", map[string]any{"url": releaseNotes, "prompt": "Summarise the release notes"}),
	}
}

// recordGeminiPrompts records the edit prompt of a Gemini-lineage CLI, the
// screen once it is approved, and its web fetch prompt (left unanswered:
// there is no network to fetch from).
func recordGeminiPrompts(r *Run, name string, build func(agentenv.Options) (*agentenv.Env, error), args []string,
	edit editTurns, fetch func() []fakemodel.Turn) error {
	// Enter goes once the prompt shows in the input box: on a loaded
	// machine Gemini CLI took an Enter sent 300 ms after the text as part
	// of a paste, and the prompt was never sent.
	spec := tuiSpec{build: build, args: args, fixture: promptsFixture(name), setup: writeNotes, echo: true}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		return []step{
			func() error { return s.Wait(qwenIdle, long) },
			func() error {
				t.srv.Push(append(edit(filepath.Join(t.env.Work, notesFile)), fakemodel.Text("I updated notes.txt."))...)
				return t.typ("Change the greeting in notes.txt")
			},
			func() error { return s.WaitSave(qwenApply, long, "blocked.edit") },
			func() error { return s.Send("\r") },
			func() error { return s.WaitGone(geminiAsk, long) },
			func() error { return s.Wait(notesEdited, long) },
			func() error { return s.WaitSave(qwenIdle, long, "after-answer.edit") },
			func() error {
				t.srv.Push(fetch()...)
				return t.typ("Read the release notes page")
			},
			func() error { return s.WaitSave(geminiAsk, long, "blocked.webfetch") },
		}
	})
}

// RecordOpencodePrompts records opencode's edit permission and its question
// menu, each with the screen after the answer.
func RecordOpencodePrompts(r *Run, name string) error {
	spec := tuiSpec{build: agentenv.NewOpencodeAsking, echo: true, fixture: promptsFixture(name), setup: writeNotes}
	// The answered question stays in the transcript; the footer goes.
	menu := regexp.MustCompile(`enter submit\s+esc dismiss`)
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		path := filepath.Join(t.env.Work, notesFile)
		steps := []step{
			func() error { return s.Wait(regexp.MustCompile(`Ask anything`), long) },
			func() error {
				t.srv.Push(fakemodel.Tool("edit", map[string]any{"filePath": path,
					"oldString": "hello from the notes", "newString": "hello again from the notes"}),
					fakemodel.Text("I updated notes.txt."))
				return t.typ("Change the greeting in notes.txt")
			},
			func() error { return s.WaitSave(opencodeAsk, long, "blocked.edit") },
			func() error { return s.Send("\r") },
			func() error { return s.WaitGone(opencodeAsk, long) },
			func() error { return s.Wait(notesEdited, long) },
			func() error { return s.WaitGone(opencodeWorking, long) },
			func() error { return s.WaitSave(opencodeIdle, long, "after-answer.edit") },
			func() error {
				t.srv.Push(fakemodel.Tool("question", map[string]any{"questions": []map[string]any{{
					"question": "Which format should the README use?", "header": "Format",
					"options": []map[string]any{{"label": "Markdown", "description": "Choose Markdown"},
						{"label": "Plain text", "description": "Choose Plain text"}}}}}),
					fakemodel.Text("Noted: Markdown."))
				return t.typ("Ask me about the README")
			},
		}
		return append(steps, t.answerMenu(menu, regexp.MustCompile(`Noted: Markdown`))...)
	})
}

// RecordCopilotPrompts records Copilot CLI's edit permission and its
// ask_user form, each with the screen after the answer.
func RecordCopilotPrompts(r *Run, name string) error {
	spec := tuiSpec{build: agentenv.NewCopilot, echo: true, fixture: promptsFixture(name), setup: writeNotes}
	// The answered question stays in the transcript; the footer goes.
	menu := regexp.MustCompile(`enter accept · ctrl\+d decline`)
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		path := filepath.Join(t.env.Work, notesFile)
		steps := []step{
			func() error { return s.Wait(copilotIdle, long) },
			func() error {
				t.srv.Push(fakemodel.Tool("edit", map[string]any{"path": path,
					"old_str": "hello from the notes", "new_str": "hello again from the notes"}),
					fakemodel.Text("I updated notes.txt."))
				return t.typ("Change the greeting in notes.txt")
			},
			func() error { return s.WaitSave(copilotAsk, long, "blocked.edit") },
			func() error { return s.Send("\r") },
			func() error { return s.WaitGone(copilotAsk, long) },
			func() error { return s.Wait(notesEdited, long) },
			func() error { return s.WaitSave(copilotIdle, long, "after-answer.edit") },
			func() error {
				t.srv.Push(fakemodel.Tool("ask_user", map[string]any{
					"message": "Which format should the README use?",
					"requestedSchema": map[string]any{
						"properties": map[string]any{"format": map[string]any{
							"type": "string", "title": "Format", "enum": []string{"Markdown", "Plain text"}}},
						"required": []string{"format"}}}),
					fakemodel.Text("Noted: Markdown."))
				return t.typ("Ask me about the README")
			},
		}
		return append(steps, t.answerMenu(menu, regexp.MustCompile(`Noted: Markdown`))...)
	})
}

// RecordCodexMCP records Codex's approval prompt for a tool of an MCP server
// configured on the command line (the test kit's fake MCP server, whose tool
// says nothing of being read-only), and the screen once it is allowed.
func RecordCodexMCP(r *Run, name string, args []string) error {
	mcp, err := fakemcp.New(mcpToken)
	if err != nil {
		return err
	}
	defer mcp.Close()
	spec := tuiSpec{build: agentenv.NewCodex, fixture: promptsFixture(name), args: append([]string{"--no-daemon", "-s", "read-only",
		"-c", fmt.Sprintf("mcp_servers.%s.url=%q", mcpServerName, mcp.URL),
		"-c", fmt.Sprintf(`mcp_servers.%s.http_headers={Authorization="Bearer %s"}`, mcpServerName, mcpToken)}, args...)}
	return recordTUI(r, name, spec, func(t *tui) []step {
		s := t.s
		return []step{
			func() error { return s.Wait(codexIdle, long) },
			func() error {
				t.srv.Push(fakemodel.CodexToolSearch("memory search"),
					fakemodel.CodexMCP(mcpServerName, "memory_search", map[string]any{"query": "release notes"}),
					fakemodel.Text("Found the release notes."))
				return t.typ("Search my memory for the release notes")
			},
			func() error { return s.WaitSave(codexMCPAsk, long, "blocked.mcp-tool") },
			// "Allow" is selected.
			func() error { return s.Send("\r") },
			func() error { return s.WaitGone(codexMCPAsk, long) },
			func() error { return s.Wait(regexp.MustCompile(`Found the release notes`), long) },
			func() error { return s.WaitSave(codexIdle, long, "after-answer.mcp-tool") },
		}
	})
}

// codexMCPAsk is Codex's MCP tool approval.
var codexMCPAsk = regexp.MustCompile(`Allow the \S+ MCP server to run tool`)
