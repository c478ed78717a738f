package agentcli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
)

// CLIModel is one model a CLI accepts, as a picker offers it. The first of
// every list has ID "" (the CLI's own default).
type CLIModel struct {
	ID    string `json:"id"`    // what `claude --model` / `codex -m` takes; "" = the default
	Label string `json:"label"` // "Default (the CLI's own)", "GPT-6.1-Sol", "opus"
	Note  string `json:"note"`  // the CLI's description, or where the name came from
}

// CLIModels is an agent's list and where it came from.
type CLIModels struct {
	Agent  Agent      `json:"agent"`
	Models []CLIModel `json:"models"`
	// Source says where the list was read ("codex's models cache",
	// "codex debug models", "Claude Code's documented aliases").
	Source string `json:"source"`
	// Problem is set when the CLI's own list could not be read: only the
	// default (and, for Claude Code, its documented aliases) is offered.
	Problem string `json:"problem,omitempty"`
}

// DefaultModelLabel names the "" entry: whatever the CLI picks itself
// (its config, the person's /model choice, its built-in default).
const DefaultModelLabel = "Default (the CLI's own)"

// claudeAliases are the aliases Claude Code's documentation lists for
// --model (docs.claude.com, "Model configuration"): each resolves to the
// latest model of its family for the person's account.
var claudeAliases = []CLIModel{
	{ID: "sonnet", Label: "sonnet", Note: "alias: the latest Sonnet"},
	{ID: "opus", Label: "opus", Note: "alias: the latest Opus"},
	{ID: "haiku", Label: "haiku", Note: "alias: the latest Haiku"},
}

// helpAliasRe finds the aliases `claude --help` names for --model ("Use an
// alias for the latest model (e.g. 'fable', 'opus', or 'sonnet')").
var helpAliasRe = lazy.Regexp(`'([a-z][a-z0-9\[\]]*)'`)

// CLIModels lists the models agent a accepts, "Default (the CLI's own)"
// first. Codex: its models cache (the list its server last sent to this
// person), else the catalogue the binary ships (`codex debug models
// --bundled`, no network). Claude Code: the documented aliases, the ones
// the installed binary's --help names, and the full ids the person's own
// Claude Code sessions ran (seen, from usage; nil reads none). Nothing is
// invented: a list that cannot be read says why in Problem.
func (r *Runner) CLIModels(ctx context.Context, a Agent, seen func() []string) CLIModels {
	out := CLIModels{Agent: a, Models: []CLIModel{{ID: "", Label: DefaultModelLabel, Note: "what the CLI uses when no model is named"}}}
	bin, binErr := r.bin(a)
	switch a {
	case Claude:
		out.Source = "Claude Code's documented aliases"
		names := map[string]bool{}
		add := func(m CLIModel) {
			if !names[m.ID] && CheckCLIModel(m.ID) == nil {
				names[m.ID] = true
				out.Models = append(out.Models, m)
			}
		}
		for _, m := range claudeAliases {
			add(m)
		}
		if binErr == nil {
			if help, err := r.probe.help(ctx, bin, ScrubEnv(Claude, r.Env().Environ), "--help"); err == nil {
				for _, alias := range claudeHelpAliases(help) {
					add(CLIModel{ID: alias, Label: alias, Note: "alias named by claude --help"})
				}
				out.Source += " and claude --help"
			}
		}
		if seen != nil {
			for _, id := range seen() {
				if strings.HasPrefix(id, "claude-") {
					add(CLIModel{ID: id, Label: id, Note: "full id: your Claude Code sessions used it"})
				}
			}
		}
	case Codex:
		if binErr != nil {
			out.Problem = binErr.Error()
			return out
		}
		list, src, err := r.codexCatalogue(ctx, bin)
		if err != nil {
			out.Problem = err.Error()
			return out
		}
		out.Source = src
		out.Models = append(out.Models, list...)
	default:
		out.Problem = fmt.Sprintf("unknown agent %q", a)
	}
	return out
}

// claudeHelpAliases are the quoted aliases of --model's help text.
func claudeHelpAliases(help string) []string {
	i := strings.Index(help, "--model <model>")
	if i < 0 {
		return nil
	}
	text := help[i:]
	if end := strings.Index(text, "full name"); end > 0 {
		text = text[:end]
	} else if len(text) > 400 {
		text = text[:400]
	}
	var out []string
	for _, m := range helpAliasRe().FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// codexModel is an entry of Codex's catalogue (models_cache.json and
// `codex debug models` share the shape).
type codexModel struct {
	Slug        string `json:"slug"`
	DisplayName string `json:"display_name"`
	Description string `json:"description"`
	Visibility  string `json:"visibility"`
	Priority    int    `json:"priority"`
}

// codexCatalogue reads the models Codex offers in its own picker
// (visibility "list"), in its order.
func (r *Runner) codexCatalogue(ctx context.Context, bin string) ([]CLIModel, string, error) {
	env := r.Env()
	home := envValue(env.Environ, "CODEX_HOME")
	if home == "" {
		home = filepath.Join(env.Home, ".codex")
	}
	cache := filepath.Join(home, "models_cache.json")
	if b, err := os.ReadFile(cache); err == nil {
		if list, err := parseCodexCatalogue(b); err == nil && len(list) > 0 {
			return list, "Codex's models cache (" + cache + ")", nil
		}
	}
	st, err := os.Stat(bin)
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", bin, err)
	}
	key := probeKey{path: bin, size: st.Size(), mtime: st.ModTime().UnixNano(), args: "debug models --bundled"}
	r.probe.mu.Lock()
	text, ok := r.probe.cache[key]
	r.probe.mu.Unlock()
	if !ok {
		out, err := runStdout(ctx, []string{bin, "debug", "models", "--bundled"}, ScrubEnv(Codex, env.Environ))
		if err != nil {
			return nil, "", fmt.Errorf("this Codex cannot list its models (codex debug models: %w) — update it to pick a model, or keep Default", err)
		}
		text = string(out)
		r.probe.mu.Lock()
		r.probe.cache[key] = text
		r.probe.mu.Unlock()
	}
	list, err := parseCodexCatalogue([]byte(text))
	if err != nil {
		return nil, "", fmt.Errorf("reading codex debug models: %w", err)
	}
	return list, "the catalogue this Codex ships (codex debug models --bundled)", nil
}

func parseCodexCatalogue(b []byte) ([]CLIModel, error) {
	var doc struct {
		Models []codexModel `json:"models"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("decoding the model list: %w", err)
	}
	ms := slices.DeleteFunc(doc.Models, func(m codexModel) bool {
		return m.Visibility != "list" || CheckCLIModel(m.Slug) != nil
	})
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Priority < ms[j].Priority })
	out := make([]CLIModel, 0, len(ms))
	for _, m := range ms {
		label := m.DisplayName
		if label == "" {
			label = m.Slug
		}
		out = append(out, CLIModel{ID: m.Slug, Label: label, Note: m.Description})
	}
	return out, nil
}

// runStdout runs argv and returns its stdout (stderr only for the error).
func runStdout(ctx context.Context, argv, env []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	setGroup(cmd)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	killGroup(cmd)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", err, tail(errb.Bytes(), 300))
	}
	return out.Bytes(), nil
}

func envValue(environ []string, key string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// ErrModelRefused is wrapped when the CLI (or the API behind it) refused
// the model picked for the run.
var ErrModelRefused = errors.New("refused the model")

// refusedModel turns a failure that names the picked model as unknown or
// not allowed into a message that says so and what to do; the CLI's own
// words follow it. Claude Code: "There's an issue with the selected model
// (x). It may not exist or you may not have access to it."; Codex: "The
// model `x` does not exist or you do not have access to it." or "… is not
// supported when using Codex with a ChatGPT account".
func refusedModel(m Model, err error) error {
	if err == nil || m.CLIModel == "" || errors.Is(err, ErrCanceled) || errors.Is(err, ErrTimedOut) {
		return err
	}
	s := strings.ToLower(err.Error())
	if !strings.Contains(s, strings.ToLower(m.CLIModel)) {
		return err
	}
	for _, w := range []string{"issue with the selected model", "does not exist", "not supported", "not found", "no access", "have access", "unknown model", "invalid model"} {
		if strings.Contains(s, w) {
			return fmt.Errorf("%s %w %q: it may not exist, or your plan may not include it — pick another model, or Default (the CLI's own). Details: %w",
				m.Agent.Title(), ErrModelRefused, m.CLIModel, err)
		}
	}
	return err
}

// ModelsBinding is what the window binds for the model pickers (New pane,
// Pipeline Roles, agents, fleets, the chat).
type ModelsBinding struct {
	r    *Runner
	seen func() []string
}

// NewModelsBinding binds r; seen lists the models the person's Claude Code
// sessions used (nil: none).
func NewModelsBinding(r *Runner, seen func() []string) *ModelsBinding {
	return &ModelsBinding{r: r, seen: seen}
}

// CLIModels lists the models agent ("claude" or "codex") accepts, the
// CLI's default first.
func (b *ModelsBinding) CLIModels(agent string) (CLIModels, error) {
	a := Agent(agent)
	if a != Claude && a != Codex {
		return CLIModels{}, fmt.Errorf("unknown agent %q: the model lists are for claude and codex", agent)
	}
	return b.r.CLIModels(context.Background(), a, b.seen), nil
}
