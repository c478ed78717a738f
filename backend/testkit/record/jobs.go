package record

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/fixtures"
)

// Job is one recording.
type Job struct {
	Name   string // e.g. "claude-fullscreen"; the fixture prefix before the version
	Agent  string // binary name
	Record func(r *Run, prefix string) error
}

// Jobs lists every recording `make fixtures` runs, in order.
func Jobs() []Job {
	var jobs []Job
	for _, rd := range ClaudeRenderers {
		env := rd.Env
		jobs = append(jobs, Job{Name: "claude" + rd.Variant, Agent: "claude",
			Record: func(r *Run, p string) error { return RecordClaude(r, p, env) }})
	}
	for _, v := range CodexScreens {
		args := v.Args
		jobs = append(jobs, Job{Name: "codex" + v.Variant, Agent: "codex",
			Record: func(r *Run, p string) error { return RecordCodex(r, p, args) }})
	}
	jobs = append(jobs,
		Job{Name: "qwen", Agent: "qwen", Record: RecordQwen},
		Job{Name: "gemini", Agent: "gemini", Record: RecordGemini},
		Job{Name: "opencode", Agent: "opencode", Record: RecordOpencode},
		Job{Name: "copilot", Agent: "copilot", Record: RecordCopilot},
	)
	jobs = append(jobs, dialogJobs()...)
	jobs = append(jobs, promptJobs()...)
	jobs = append(jobs, stuckJobs()...)
	jobs = append(jobs,
		Job{Name: "claude-headless", Agent: "claude", Record: RecordClaudeHeadless},
		Job{Name: "codex-headless", Agent: "codex", Record: RecordCodexHeadless},
		Job{Name: "gemini-headless", Agent: "gemini", Record: RecordGeminiHeadless},
		Job{Name: "qwen-headless", Agent: "qwen", Record: RecordQwenHeadless},
		Job{Name: "opencode-headless", Agent: "opencode", Record: RecordOpencodeHeadless},
		Job{Name: "copilot-headless", Agent: "copilot", Record: RecordCopilotHeadless},
	)
	return jobs
}

// manifestEntry describes one raw fixture for readers that are not Go.
type manifestEntry struct {
	File     string `json:"file"`
	Agent    string `json:"agent"`
	Renderer string `json:"renderer,omitempty"`
	Version  string `json:"version"`
	State    string `json:"state"`
	Detail   string `json:"detail,omitempty"`
	Bytes    int64  `json:"bytes"`
}

// WriteManifest lists every raw fixture now in the folder in manifest.json.
func WriteManifest(r *Run) error {
	raws, err := fixtures.RawsIn(r.Out)
	if err != nil {
		return err
	}
	entries := make([]manifestEntry, 0, len(raws))
	for _, x := range raws {
		st, err := os.Stat(x.Path)
		if err != nil {
			return err
		}
		entries = append(entries, manifestEntry{x.Name, x.Agent, x.Renderer, x.Version, x.State, x.Detail, st.Size()})
	}
	b, err := json.MarshalIndent(map[string]any{
		"size":        fmt.Sprintf("%dx%d", Cols, Rows),
		"recorded_at": time.Now().UTC().Format(time.RFC3339),
		"fixtures":    entries,
	}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.Out, "manifest.json"), append(b, '\n'), 0o644)
}
