package agentcli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/shellenv"
)

// Codex runs and checks pass --ignore-user-config, so the person's MCP
// servers, hooks and approval settings never join a run. The one part of
// that config a run cannot do without is where the model is: a person on
// a custom provider, Azure or a company gateway has no OpenAI account to
// fall back to, and Codex without their provider says "Reconnecting…"
// until the check reports that OpenAI cannot be reached. So the provider
// (model_provider, its [model_providers.<id>] table, model and
// openai_base_url) is read from their config.toml and passed back as -c
// overrides, before the app's own, which keep the safety settings.
//
// Only config.toml is read: it is the person's settings, not a login.
// auth.json is never opened.

// codexProvider is the model provider the person's Codex config chooses.
type codexProvider struct {
	ID      string // model_provider; "" when the config chooses none
	Name    string // the table's name, else the ID
	BaseURL string
	EnvKey  string // the variable Codex reads the provider's key from
	File    string // the config.toml it came from
	// overrides are the -c key=value pairs that choose it for a run.
	overrides []string
}

// builtinCodexProviders are the providers Codex knows without a table.
var builtinCodexProviders = []string{"openai", "ollama", "lmstudio", "oss"}

// custom reports whether runs go somewhere other than the person's OpenAI
// account: a provider of their own, or OpenAI through their base URL.
func (p codexProvider) custom() bool { return len(p.overrides) > 0 }

// describe names the provider for messages: `provider "corp" (https://…,
// from ~/.codex/config.toml)`.
func (p codexProvider) describe() string {
	where := p.BaseURL
	if where != "" {
		where += ", "
	}
	return fmt.Sprintf("Codex's provider %q (%sfrom %s)", p.Name, where, p.File)
}

// service names where the provider's requests go, for "Cannot reach …".
func (p codexProvider) service() string {
	if p.BaseURL == "" {
		return p.Name
	}
	return p.Name + " (" + hostOf(p.BaseURL, p.BaseURL) + ")"
}

// codexConfigFile is $CODEX_HOME/config.toml (env is the children's),
// else ~/.codex/config.toml.
func codexConfigFile(env Env) string {
	if h := shellenv.GetIn(env.Environ, "CODEX_HOME"); h != "" {
		return filepath.Join(h, "config.toml")
	}
	return filepath.Join(env.Home, ".codex", "config.toml")
}

// readCodexProvider reads the provider the person's Codex config chooses.
// No config file, or one that chooses the default OpenAI account, is the
// zero provider (no overrides).
func readCodexProvider(env Env) (codexProvider, error) {
	file := codexConfigFile(env)
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return codexProvider{}, nil
	}
	if err != nil {
		return codexProvider{}, fmt.Errorf("reading your Codex config %s: %w", file, err)
	}
	var cfg map[string]any
	if err := toml.Unmarshal(b, &cfg); err != nil {
		return codexProvider{}, fmt.Errorf("reading your Codex config %s: %w — fix the file (Codex itself cannot start with it either)", file, err)
	}
	top := func(key string) string { s, _ := cfg[key].(string); return s }
	id, model, baseURL := top("model_provider"), top("model"), top("openai_base_url")
	if name := top("profile"); name != "" {
		// The active profile's choices win over the top-level ones, as in Codex.
		profiles, _ := cfg["profiles"].(map[string]any)
		prof, _ := profiles[name].(map[string]any)
		if s, _ := prof["model_provider"].(string); s != "" {
			id = s
		}
		if s, _ := prof["model"].(string); s != "" {
			model = s
		}
	}
	if (id == "" || id == "openai") && baseURL == "" {
		return codexProvider{}, nil
	}
	p := codexProvider{ID: id, Name: id, File: file, BaseURL: baseURL}
	if id == "" {
		p.ID, p.Name = "openai", "openai"
	}
	p.overrides = append(p.overrides, "model_provider="+tomlString(p.ID))
	providers, _ := cfg["model_providers"].(map[string]any)
	table, _ := providers[p.ID].(map[string]any)
	if table == nil && !slices.Contains(builtinCodexProviders, p.ID) {
		return p, fmt.Errorf("your Codex config %s chooses the provider %q, but has no [model_providers.%s] table: add it (name, base_url, env_key) or choose another model_provider", file, p.ID, p.ID)
	}
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, ok := tomlValue(table[k])
		if !ok {
			continue // a value kind a provider table never holds (a date)
		}
		p.overrides = append(p.overrides, "model_providers."+tomlKey(p.ID)+"."+tomlKey(k)+"="+v)
	}
	if s, _ := table["name"].(string); s != "" {
		p.Name = s
	}
	if s, _ := table["base_url"].(string); s != "" {
		p.BaseURL = s
	}
	p.EnvKey, _ = table["env_key"].(string)
	if baseURL != "" {
		p.overrides = append(p.overrides, "openai_base_url="+tomlString(baseURL))
	}
	if model != "" {
		p.overrides = append(p.overrides, "model="+tomlString(model)) // a run's own -m still wins
	}
	return p, nil
}

// withKey returns a Codex child's scrubbed environment with the provider's
// env_key: from the app's environment, else from the person's terminal
// (a key exported only in ~/.bashrc). The key stays even when it is one of
// the billing variables ScrubEnv removes: the person's own provider is not
// their ChatGPT subscription, and without it the run cannot start. A key
// set nowhere is an error saying so and where to set it.
func (p codexProvider) withKey(env []string, sys Env) ([]string, error) {
	if p.EnvKey == "" {
		return env, nil
	}
	v := shellenv.GetIn(sys.Environ, p.EnvKey)
	if v == "" {
		v = shellenv.GetIn(sys.Terminal, p.EnvKey)
	}
	if v == "" {
		return env, fmt.Errorf("%s reads its API key from the environment variable %s, which is not set: export %s in your shell's startup file (~/.bashrc, ~/.zshrc or ~/.profile) and restart osFoundry", p.describe(), p.EnvKey, p.EnvKey)
	}
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, p.EnvKey+"=") })
	return append(out, p.EnvKey+"="+v), nil
}

var bareKey = lazy.Regexp(`^[A-Za-z0-9_-]+$`)

// tomlKey quotes k unless it is a bare TOML key.
func tomlKey(k string) string {
	if bareKey().MatchString(k) {
		return k
	}
	return tomlString(k)
}

// tomlValue writes v, as decoded from TOML, back as a TOML value for the
// value side of -c (inline tables and arrays included).
func tomlValue(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return tomlString(x), true
	case bool:
		return strconv.FormatBool(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case []any:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := tomlValue(e)
			if !ok {
				return "", false
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, 0, len(x))
		for _, k := range keys {
			s, ok := tomlValue(x[k])
			if !ok {
				return "", false
			}
			parts = append(parts, tomlKey(k)+"="+s)
		}
		return "{" + strings.Join(parts, ", ") + "}", true
	}
	return "", false
}
