package agentenv

import (
	"path/filepath"
	"testing"
)

// Best-effort agents: the Gemini-CLI lineage. Each gets a home that has
// already picked its auth method and trusts the work folder (folder trust
// off; on with Options.Untrusted), and points at the fake server.

// FakeModelName is the model id given to CLIs that take any name.
const FakeModelName = "fake-model"

// NewQwen builds a Qwen Code sandbox speaking OpenAI Chat Completions.
func NewQwen(o Options) (*Env, error) {
	e, err := newEnv("qwen", o)
	if err != nil {
		return nil, err
	}
	settings := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}, "folderTrust": map[string]any{"enabled": o.Untrusted}},
		"model":    map[string]any{"name": FakeModelName},
		"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"ui":       map[string]any{"hideTips": true},
	}
	if err := writeJSONFile(filepath.Join(e.Home, ".qwen", "settings.json"), settings); err != nil {
		return nil, err
	}
	e.Env = append(e.Env,
		"OPENAI_API_KEY=sk-osf-fake-0000",
		"OPENAI_BASE_URL="+o.ModelURL+"/v1",
		"OPENAI_MODEL="+FakeModelName,
	)
	e.Env = append(e.Env, o.Extra...)
	return e, nil
}

// Qwen is NewQwen for tests.
func Qwen(tb testing.TB, modelURL string, extra ...string) *Env {
	tb.Helper()
	if _, ok := findOrSkip(tb, "qwen"); !ok {
		return nil
	}
	e, err := NewQwen(Options{ModelURL: modelURL, Base: tb.TempDir(), Extra: extra})
	if err != nil {
		tb.Fatal(err)
	}
	return register(tb, e)
}

// NewGemini builds a Gemini CLI sandbox speaking the Gemini API: an API key
// already chosen as the auth method, folder trust off (on with
// o.Untrusted), no update checks.
func NewGemini(o Options) (*Env, error) {
	e, err := newEnv("gemini", o)
	if err != nil {
		return nil, err
	}
	settings := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": o.Untrusted}},
		"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"ui":       map[string]any{"hideTips": true},
		"ide":      map[string]any{"hasSeenNudge": true},
	}
	if err := writeJSONFile(filepath.Join(e.Home, ".gemini", "settings.json"), settings); err != nil {
		return nil, err
	}
	e.Env = append(e.Env,
		"GEMINI_API_KEY=osf-fake-gemini-key",
		"GOOGLE_GEMINI_BASE_URL="+o.ModelURL,
	)
	e.Env = append(e.Env, o.Extra...)
	return e, nil
}

// Gemini is NewGemini for tests.
func Gemini(tb testing.TB, modelURL string, extra ...string) *Env {
	tb.Helper()
	if _, ok := findOrSkip(tb, "gemini"); !ok {
		return nil
	}
	e, err := NewGemini(Options{ModelURL: modelURL, Base: tb.TempDir(), Extra: extra})
	if err != nil {
		tb.Fatal(err)
	}
	return register(tb, e)
}

// OpencodeAsk makes opencode ask before running shell commands and editing
// files (its default allows both), so its permission prompt can be recorded.
var OpencodeAsk = map[string]any{"bash": "ask", "edit": "ask"}

// NewOpencode builds an opencode sandbox: a config with an OpenAI-compatible
// provider "fake" (Chat Completions) as the model, no autoupdate, no sharing.
func NewOpencode(o Options) (*Env, error) { return newOpencode(o, nil) }

// NewOpencodeAsking is NewOpencode with the OpencodeAsk permissions.
func NewOpencodeAsking(o Options) (*Env, error) { return newOpencode(o, OpencodeAsk) }

func newOpencode(o Options, permission map[string]any) (*Env, error) {
	e, err := newEnv("opencode", o)
	if err != nil {
		return nil, err
	}
	cfg := map[string]any{
		"autoupdate": false,
		"share":      "disabled",
		"model":      "fake/" + FakeModelName,
		"provider": map[string]any{"fake": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Fake",
			"options": map[string]any{"baseURL": o.ModelURL + "/v1", "apiKey": "sk-osf-fake-0000"},
			"models":  map[string]any{FakeModelName: map[string]any{"name": "Fake model"}},
		}},
	}
	if permission != nil {
		cfg["permission"] = permission
	}
	if err := writeJSONFile(filepath.Join(e.Home, ".config", "opencode", "opencode.json"), cfg); err != nil {
		return nil, err
	}
	e.Env = append(e.Env, "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1")
	e.Env = append(e.Env, o.Extra...)
	return e, nil
}

// Opencode is NewOpencode for tests.
func Opencode(tb testing.TB, modelURL string, extra ...string) *Env {
	tb.Helper()
	if _, ok := findOrSkip(tb, "opencode"); !ok {
		return nil
	}
	e, err := NewOpencode(Options{ModelURL: modelURL, Base: tb.TempDir(), Extra: extra})
	if err != nil {
		tb.Fatal(err)
	}
	return register(tb, e)
}

// NewCopilot builds a GitHub Copilot CLI sandbox in offline BYOK mode: no
// GitHub sign-in, no network, a custom OpenAI-compatible provider (Chat
// Completions) at the fake server.
func NewCopilot(o Options) (*Env, error) {
	e, err := newEnv("copilot", o)
	if err != nil {
		return nil, err
	}
	// The work folder is trusted, as after "Yes, and remember this folder".
	cfg := map[string]any{"trustedFolders": []string{e.Work}, "appTipShown": true}
	if err := writeJSONFile(filepath.Join(e.Home, ".copilot", "config.json"), cfg); err != nil {
		return nil, err
	}
	e.Env = append(e.Env,
		// Token limits of a model outside its catalog; without them it warns.
		"COPILOT_PROVIDER_MAX_PROMPT_TOKENS=128000",
		"COPILOT_PROVIDER_MAX_OUTPUT_TOKENS=16000",
		"COPILOT_HOME="+filepath.Join(e.Home, ".copilot"),
		"COPILOT_OFFLINE=true",
		"COPILOT_AUTO_UPDATE=false",
		"COPILOT_PROVIDER_BASE_URL="+o.ModelURL+"/v1",
		"COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_API_KEY=sk-osf-fake-0000",
		"COPILOT_MODEL="+FakeModelName,
	)
	e.Env = append(e.Env, o.Extra...)
	return e, nil
}

// Copilot is NewCopilot for tests.
func Copilot(tb testing.TB, modelURL string, extra ...string) *Env {
	tb.Helper()
	if _, ok := findOrSkip(tb, "copilot"); !ok {
		return nil
	}
	e, err := NewCopilot(Options{ModelURL: modelURL, Base: tb.TempDir(), Extra: extra})
	if err != nil {
		tb.Fatal(err)
	}
	return register(tb, e)
}
