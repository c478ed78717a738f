package agentenv

import (
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
)

// CodexModel is a model id Codex knows metadata for, so it prints no
// unknown-model warning.
const CodexModel = "gpt-5.5"

// NewCodex builds a Codex sandbox: CODEX_HOME=<home>/.codex with a
// config.toml whose provider "fake" points at the fake server's Responses
// API, without websockets, retries or update checks, and the work folder
// trusted (unless o.Untrusted). TMPDIR stays outside CODEX_HOME: Codex refuses to create its
// sandbox helper under a temp dir.
func NewCodex(o Options) (*Env, error) {
	e, err := newEnv("codex", o)
	if err != nil {
		return nil, err
	}
	codexHome := filepath.Join(e.Home, ".codex")
	cfg := fmt.Sprintf(`model = %[1]s
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %[2]s
wire_api = "responses"
env_key = "OSF_FAKE_OPENAI_KEY"
supports_websockets = false
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 60000

%[3]s
# One-time TUI notices a user has already dismissed (what 0.169.0 writes
# after "Use existing model"), so the TUI opens on its prompt.
[tui]
screen_reader_detection_done = true

[tui.model_availability_nux]
"gpt-6.1-sol" = 1

[notice.model_migrations]
"gpt-5.5" = "gpt-6-sol"
`, strconv.Quote(CodexModel), strconv.Quote(o.ModelURL+"/v1"), codexTrust(e.Work, o.Untrusted))
	if err := writeFile(filepath.Join(codexHome, "config.toml"), cfg); err != nil {
		return nil, err
	}
	e.Env = append(e.Env,
		"CODEX_HOME="+codexHome,
		"OSF_FAKE_OPENAI_KEY=sk-osf-fake-0000",
	)
	e.Env = append(e.Env, o.Extra...)
	e.Args = []string{"-m", CodexModel}
	return e, nil
}

// codexTrust is the config table trusting the work folder, or nothing when
// the folder is to be met untrusted.
func codexTrust(work string, untrusted bool) string {
	if untrusted {
		return ""
	}
	return "[projects." + strconv.Quote(work) + "]\ntrust_level = \"trusted\"\n"
}

// CodexHome is the CODEX_HOME of a Codex env.
func (e *Env) CodexHome() string { return filepath.Join(e.Home, ".codex") }

// Codex is NewCodex for tests: skips when the CLI is not installed, and
// cleans up when the test ends.
func Codex(tb testing.TB, modelURL string, extra ...string) *Env {
	tb.Helper()
	if _, ok := findOrSkip(tb, "codex"); !ok {
		return nil
	}
	e, err := NewCodex(Options{ModelURL: modelURL, Base: tb.TempDir(), Extra: extra})
	if err != nil {
		tb.Fatal(err)
	}
	return register(tb, e)
}

func findOrSkip(tb testing.TB, name string) (string, bool) {
	tb.Helper()
	p, ok := agentbin.Find(name)
	if !ok {
		tb.Skip(agentbin.SkipMessage(name))
	}
	return p, ok
}
