package record

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
	"github.com/osfoundry/desktop/backend/testkit/fixtures"
)

// recordJob records job with the installed CLI into a temp folder and
// returns the folder and the CLI's version; it skips when the CLI is
// missing.
func recordJob(t *testing.T, job Job) (out, version string) {
	t.Helper()
	if _, ok := agentbin.Find(job.Agent); !ok {
		t.Skip(agentbin.SkipMessage(job.Agent))
	}
	version, err := agentbin.Version(agentbin.Packages[job.Agent])
	if err != nil {
		t.Fatal(err)
	}
	out = t.TempDir()
	r, err := NewRun(out, t.TempDir(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Record(r, job.Name+"-"+version); err != nil {
		t.Fatal(err)
	}
	return out, version
}

// Live: the recorder's flows still drive the installed CLIs through every
// state (a new CLI release that changes a prompt fails here first). Records
// the default renderer of each agent into a temp folder; `make fixtures`
// records all of them into testdata.
func TestLiveRecordTUIs(t *testing.T) {
	for _, job := range Jobs() {
		if job.Name != "claude" && job.Name != "codex" {
			continue
		}
		t.Run(job.Name, func(t *testing.T) {
			out, _ := recordJob(t, job)
			raws, err := fixtures.RawsIn(out)
			if err != nil {
				t.Fatal(err)
			}
			states := map[string]bool{}
			for _, x := range raws {
				states[x.State] = true
				if st, err := os.Stat(x.Path); err != nil || st.Size() == 0 {
					t.Errorf("%s: empty recording", x.Name)
				}
			}
			for _, s := range []string{fixtures.Idle, fixtures.Working, fixtures.Blocked, fixtures.AfterAnswer,
				fixtures.Interrupted, fixtures.Exited} {
				if !states[s] {
					t.Errorf("no %s recording", s)
				}
			}
			if m, _ := filepath.Glob(filepath.Join(out, "stores", "*", "*")); len(m) == 0 {
				t.Error("no session store copied")
			}
		})
	}
}

// Live: the first-run dialogs still show on the installed CLIs (folder
// trust, a project's MCP server, MCP tool and web fetch prompts), each
// recorded with its answered screen.
func TestLiveRecordDialogs(t *testing.T) {
	want := map[string][]string{
		"claude-dialogs": {"blocked.trust", "after-answer.trust", "blocked.mcp-server", "after-answer.mcp-server",
			"blocked.mcp-tool", "after-answer.mcp-tool", "blocked.webfetch"},
		"codex-dialogs": {"blocked.trust", "after-answer.trust"},
	}
	for _, job := range Jobs() {
		states, ok := want[job.Name]
		if !ok {
			continue
		}
		t.Run(job.Name, func(t *testing.T) {
			out, version := recordJob(t, job)
			for _, s := range states {
				name := job.Agent + "-" + version + "." + s + ".raw"
				if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() == 0 {
					t.Errorf("no recording %s: %v", name, err)
				}
			}
			if m, _ := filepath.Glob(filepath.Join(out, "stores", "*")); len(m) > 0 {
				t.Errorf("a dialog recording copied a session store: %v", m)
			}
		})
	}
}

// Live: the rarer prompts still show on the installed CLIs (an edit of an
// existing file, a web fetch, a question menu, an MCP tool call), each with
// its answered screen where the flow answers it.
func TestLiveRecordPrompts(t *testing.T) {
	want := map[string][]string{
		"gemini-prompts":       {"blocked.edit", "after-answer.edit", "blocked.webfetch"},
		"qwen-prompts":         {"blocked.edit", "after-answer.edit", "blocked.webfetch"},
		"opencode-prompts":     {"blocked.edit", "after-answer.edit", "blocked.question", "after-answer.question"},
		"copilot-prompts":      {"blocked.edit", "after-answer.edit", "blocked.question", "after-answer.question"},
		"codex-prompts":        {"blocked.mcp-tool", "after-answer.mcp-tool"},
		"codex-inline-prompts": {"blocked.mcp-tool", "after-answer.mcp-tool"},
	}
	seen := 0
	for _, job := range Jobs() {
		states, ok := want[job.Name]
		if !ok {
			continue
		}
		seen++
		t.Run(job.Name, func(t *testing.T) {
			out, version := recordJob(t, job)
			prefix := job.Name + "-" + version
			for _, s := range states {
				name := promptsFixture(prefix) + "." + s + ".raw"
				if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() == 0 {
					t.Errorf("no recording %s: %v", name, err)
				}
			}
			if m, _ := filepath.Glob(filepath.Join(out, "stores", "*")); len(m) > 0 {
				t.Errorf("a prompts recording copied a session store: %v", m)
			}
		})
	}
	if seen != len(want) {
		t.Errorf("Jobs() lists %d of the %d prompts recordings", seen, len(want))
	}
}
