package shellenv

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Allowlist names the variables copied from the login shell when absent
// here: where version managers keep node (nvm, volta, asdf, Homebrew), the
// locale, proxies and CA bundles a CLI's HTTPS needs, and the agents' own
// config folders. Nothing else is copied: an rc file's API keys and tokens
// must never reach a worker (billing variables are also scrubbed from every
// child, backend/agentcli/scrub.go; this keeps the rest out as well).
var Allowlist = []string{
	"NVM_DIR", "NVM_BIN", "NVM_INC", "NVM_HOME", "NVM_SYMLINK",
	"VOLTA_HOME",
	"ASDF_DIR", "ASDF_DATA_DIR",
	"HOMEBREW_PREFIX", "HOMEBREW_CELLAR", "HOMEBREW_REPOSITORY",
	"LANG", "LC_ALL", "LC_CTYPE",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
	"http_proxy", "https_proxy", "no_proxy", "all_proxy",
	"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME",
	"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME",
	"TMPDIR", "SHELL", "USER", "LOGNAME",
}

// mergePlan is what a merge changes in the process's environment.
type mergePlan struct {
	set     [][2]string // name, value, in order (PATH first when it changes)
	added   []string    // PATH entries new to the process
	dropped []string    // PATH entries that are not existing folders
}

func (p mergePlan) names() []string {
	var out []string
	for _, kv := range p.set {
		if kv[0] != "PATH" {
			out = append(out, kv[0])
		}
	}
	return out
}

// plan merges login (the shell's environment) over the current one, read
// through lookup: PATH is the shell's entries first, then the current ones
// not already present, keeping only absolute paths of existing folders;
// allowlisted variables are copied when absent or empty here.
func plan(lookup func(string) (string, bool), login map[string]string) mergePlan {
	var p mergePlan
	cur, _ := lookup("PATH")
	var path []string
	seen := func(dir string) bool {
		return slices.ContainsFunc(path, func(d string) bool { return samePath(d, dir) })
	}
	addFrom := func(list string, fromLogin bool) {
		for _, dir := range filepath.SplitList(list) {
			if dir == "" {
				continue
			}
			if !isDir(dir) {
				if !slices.Contains(p.dropped, dir) {
					p.dropped = append(p.dropped, dir)
				}
				continue
			}
			if seen(dir) {
				continue
			}
			path = append(path, dir)
			if fromLogin && !slices.ContainsFunc(filepath.SplitList(cur), func(d string) bool { return samePath(d, dir) }) {
				p.added = append(p.added, dir)
			}
		}
	}
	addFrom(login["PATH"], true)
	addFrom(cur, false)
	if joined := strings.Join(path, string(os.PathListSeparator)); joined != cur && len(path) > 0 {
		p.set = append(p.set, [2]string{"PATH", joined})
	}
	for _, name := range Allowlist {
		v, ok := login[name]
		if !ok || v == "" || strings.ContainsRune(v, 0) {
			continue
		}
		if have, _ := lookup(name); have != "" {
			continue
		}
		p.set = append(p.set, [2]string{name, v})
	}
	return p
}

// isDir: a PATH entry is kept only as an absolute path to an existing
// folder. A relative entry would resolve against wherever the app runs.
func isDir(dir string) bool {
	if !filepath.IsAbs(dir) {
		return false
	}
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

func samePath(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
