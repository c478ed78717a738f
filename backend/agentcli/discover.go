package agentcli

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/osfoundry/desktop/backend/shellenv"
)

// Env is what discovery and runs read from the machine, injected so tests
// never see this machine's real home, PATH or keys.
type Env struct {
	Home string // the user's home folder
	// Path is the PATH to search (the app's own).
	Path string
	// Environ is the environment children start from (before scrubbing).
	Environ []string
	// Terminal is the person's terminal environment (everything the login
	// shell exports; shellenv.TerminalEnviron). Children never start from
	// it: only the variable the person's Codex provider names as its
	// env_key is taken from it (codexProvider.withKey).
	Terminal []string
	// Root prefixes the absolute system locations such as
	// /Applications/Codex.app (tests point it at a temp folder).
	Root string
}

// SystemEnv is the app's real environment. While the app is still reading
// the login shell's PATH (started from a desktop entry, Finder or
// Explorer: backend/shellenv) it waits for it, so no CLI is looked up in
// the bare PATH such a start gets.
func SystemEnv() Env {
	env := shellenv.Environ()
	home, _ := os.UserHomeDir()
	return Env{Home: home, Path: shellenv.GetIn(env, "PATH"), Environ: env, Terminal: shellenv.TerminalEnviron()}
}

// Install is one CLI's row in the External AI tab.
type Install struct {
	Agent     Agent    `json:"agent"`
	Name      string   `json:"name"`
	Installed bool     `json:"installed"`
	Path      string   `json:"path"`
	Source    string   `json:"source"` // where it was found: "PATH", "~/.claude/local", …
	Models    []string `json:"models"`
	// KeysInEnv names the billing variables set in the app's environment
	// (the "API key in env" badge); they are removed from every child.
	KeysInEnv []string `json:"keysInEnv"`
	// NoLiveStream: Codex reports whole messages, not tokens.
	NoLiveStream bool   `json:"noLiveStream"`
	Note         string `json:"note,omitempty"`
	// SignInHint is shown with the Sign in terminal.
	SignInHint string `json:"signInHint,omitempty"`
}

// CodexNote is the External AI tab's note on the Codex row (docs/reference.md §3).
const CodexNote = "osFoundry tools require git-worktree isolation for Codex (it trades its own sandbox for git safety). Point it at a git repo folder."

// CodexPlanModeNote is a plan-mode Codex run's first line: Codex lets MCP
// calls through only with its own sandbox bypassed, so in plan mode it
// runs in its read-only sandbox without the bridge instead.
const CodexPlanModeNote = "Plan mode: Codex runs in its read-only sandbox, so it can read and plan but change nothing; osFoundry tools are off for this run (Codex calls them only with its sandbox bypassed)."

// ClaudeSignInHint is shown with the Sign in terminal for Claude.
const ClaudeSignInHint = "Type /login to sign in, then close this window."

// candidate is one place a binary may be.
type candidate struct {
	source string
	path   string
}

// Discover looks an agent up in PATH, then in the CLI's own install
// folders, in the order of the spec; the first executable file wins.
func Discover(a Agent, env Env) Install {
	in := Install{Agent: a, Name: a.Title(), Models: Models(a), KeysInEnv: KeysInEnv(a, env.Environ)}
	if in.KeysInEnv == nil {
		in.KeysInEnv = []string{}
	}
	switch a {
	case Claude:
		in.SignInHint = ClaudeSignInHint
	case Codex:
		in.NoLiveStream = true
		in.Note = CodexNote
	}
	for _, c := range candidates(a, env) {
		if isExecutable(c.path) {
			in.Installed, in.Path, in.Source = true, c.path, c.source
			break
		}
	}
	return in
}

func candidates(a Agent, env Env) []candidate {
	name := string(a)
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	var out []candidate
	for _, dir := range filepath.SplitList(env.Path) {
		if dir == "" || !filepath.IsAbs(dir) {
			// A relative PATH entry would resolve against the app's cwd:
			// never run a binary from wherever the app happens to be.
			continue
		}
		out = append(out, candidate{"PATH", filepath.Join(dir, name)})
	}
	if env.Home == "" {
		return out
	}
	switch a {
	case Claude:
		out = append(out, candidate{"~/.claude/local", filepath.Join(env.Home, ".claude", "local", name)})
		for _, p := range vscodeClaude(env.Home, name) {
			out = append(out, candidate{"VS Code extension", p})
		}
	case Codex:
		out = append(out,
			candidate{"~/.codex/bin", filepath.Join(env.Home, ".codex", "bin", name)},
			candidate{"Codex.app", filepath.Join(env.Root, "/Applications/Codex.app/Contents/Resources/codex")})
	}
	return out
}

// vscodeClaude lists the VS Code extension's native binaries, newest
// extension version first (several versions stay installed side by side).
func vscodeClaude(home, name string) []string {
	pattern := filepath.Join(home, ".vscode", "extensions", "anthropic.claude-code-*", "resources", "native-binary", name)
	paths, _ := filepath.Glob(pattern)
	sort.Slice(paths, func(i, j int) bool {
		return versionLess(extVersion(paths[j]), extVersion(paths[i]))
	})
	return paths
}

// extVersion pulls "2.1.3" out of …/anthropic.claude-code-2.1.3-linux-x64/….
func extVersion(p string) []int {
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if rest, ok := strings.CutPrefix(part, "anthropic.claude-code-"); ok {
			var v []int
			for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == '.' || r == '-' }) {
				n, err := strconv.Atoi(f)
				if err != nil {
					break
				}
				v = append(v, n)
			}
			return v
		}
	}
	return nil
}

func versionLess(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode()&0o111 != 0
}
