package record

import (
	"path/filepath"
	"regexp"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// Screen texts of Qwen Code 0.24 and Gemini CLI 0.61 the recorder waits for.
var (
	qwenIdle      = regexp.MustCompile(`Type your message`)
	qwenWorking   = regexp.MustCompile(`esc to cancel`)
	qwenAllow     = regexp.MustCompile(`Allow execution of`)
	qwenApply     = regexp.MustCompile(`Apply this change\?|Allow write|Yes, allow once`)
	qwenAnyPrompt = regexp.MustCompile(`Allow execution|Apply this change|Yes, allow once|Waiting for user`)
	qwenMenu      = regexp.MustCompile(`Which format should the README use\?`)
	qwenAnswered  = regexp.MustCompile(`Noted: Markdown`)
	qwenCancelled = regexp.MustCompile(`(?i)cancel`)
)

// geminiLike describes a CLI of the Gemini CLI lineage: same screens, its
// own API, tool names and question tool.
type geminiLike struct {
	build   func(agentenv.Options) (*agentenv.Env, error)
	args    []string
	command string // a shell command its policy lets the user approve
	ask     func() fakemodel.Turn
}

// RecordQwen drives Qwen Code's TUI (OpenAI Chat Completions against the
// fake server) through the states it has.
func RecordQwen(r *Run, name string) error {
	return recordGeminiLike(r, name, geminiLike{
		build: agentenv.NewQwen,
		// Default approvals: 0.24 starts in auto mode, whose LLM classifier
		// would answer its own prompts.
		args:    []string{"--approval-mode", "default"},
		command: "touch osf-bash.txt && echo osf-marker-$((6*7))",
		ask: func() fakemodel.Turn {
			t := fakemodel.ClaudeAsk("Format", "Which format should the README use?", "Markdown", "Plain text")
			t.Calls[0].Name = "ask_user_question"
			return t
		},
	})
}

// RecordGemini drives Gemini CLI's TUI (Gemini API against the fake server).
func RecordGemini(r *Run, name string) error {
	return recordGeminiLike(r, name, geminiLike{
		build: agentenv.NewGemini,
		// Its shell policy refuses command substitution outright.
		command: "touch osf-bash.txt && echo osf-marker-42",
		ask: func() fakemodel.Turn {
			return fakemodel.Tool("ask_user", map[string]any{"questions": []map[string]any{{
				"question": "Which format should the README use?", "header": "Format", "type": "choice",
				"options": []map[string]any{{"label": "Markdown", "description": "Choose Markdown"},
					{"label": "Plain text", "description": "Choose Plain text"}}}}})
		},
	})
}

func recordGeminiLike(r *Run, name string, g geminiLike) error {
	return recordTUI(r, name, tuiSpec{build: g.build, args: g.args}, func(t *tui) []step {
		s := t.s
		steps := t.approveTools(approvals{
			prompt: "Create a marker file with the shell, then write hello.txt",
			idle:   qwenIdle, working: qwenWorking,
			run: qwenAllow, write: qwenApply, answered: qwenAnyPrompt,
		},
			fakemodel.Tool("run_shell_command", map[string]any{"command": g.command, "description": "Create a marker file"}),
			fakemodel.Tool("write_file", map[string]any{
				"file_path": filepath.Join(t.env.Work, "hello.txt"), "content": "hello from " + t.env.Agent + "\n"}),
			fakemodel.Question("I created hello.txt. Would you like me to add a README as well?"),
		)
		steps = append(steps,
			func() error { return s.WaitGone(qwenAnyPrompt, long) },
			func() error { return s.Wait(readmeQuestion, long) },
			func() error { return s.WaitSave(qwenIdle, long, "idle.question") },
			func() error {
				t.srv.Push(g.ask(), fakemodel.Text("Noted: Markdown."))
				return s.Type("Ask me about the README")
			},
		)
		steps = append(steps, t.answerMenu(qwenMenu, qwenAnswered)...)
		steps = append(steps, t.interrupt(qwenWorking, qwenCancelled, func() error { return s.Send("\x1b") })...)
		steps = append(steps,
			// The cancelled prompt comes back into the input; Ctrl+C clears it.
			func() error { return s.Send("\x03") },
			func() error { time.Sleep(300 * time.Millisecond); return s.Type("/quit") },
		)
		return append(steps, t.exited()...)
	})
}
