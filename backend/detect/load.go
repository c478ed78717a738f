package detect

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
)

// OverrideDir is where a user's rule files live, relative to their home.
const OverrideDir = ".osfoundry/agent-detection"

// maxRulesFile bounds an override file; real ones are a few hundred bytes.
const maxRulesFile = 256 << 10

// LoadError reports a rules file that could not be used. For an override the
// bundled file of the same agent is used instead.
type LoadError struct {
	File    string
	Problem string
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("agent detection rules %s: %s", e.File, e.Problem)
}

// Registry is the set of agents the app can recognise, bundled rules with
// user overrides applied. Replace swaps in newly loaded rules while panes
// are being read: every reader works on one consistent snapshot.
type Registry struct {
	cur atomic.Pointer[ruleSets]
}

// ruleSets is one loaded, never modified, set of rules.
type ruleSets struct {
	sets  map[string]*RuleSet
	order []string // bundled agents first (sorted), then override-only agents
}

func (r *Registry) snap() *ruleSets {
	if r == nil {
		return &ruleSets{}
	}
	if s := r.cur.Load(); s != nil {
		return s
	}
	return &ruleSets{}
}

// Replace makes n's rules this registry's (a rules update applied without
// a restart); panes holding r read them from their next evaluation.
func (r *Registry) Replace(n *Registry) {
	r.cur.Store(n.snap())
}

// Load compiles every bundled <agent>.toml in bundled (usually rules.Files)
// and applies overrides from <home>/.osfoundry/agent-detection/<agent>.toml.
// home may be empty (no overrides). Broken overrides are returned as
// *LoadError values and ignored; a broken bundled file is an error because
// the binary itself is wrong.
func Load(bundled fs.FS, home string) (*Registry, []error, error) {
	r := &ruleSets{sets: map[string]*RuleSet{}}
	names, err := fs.Glob(bundled, "*.toml")
	if err != nil {
		return nil, nil, fmt.Errorf("listing bundled rules: %w", err)
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := fs.ReadFile(bundled, n)
		if err != nil {
			return nil, nil, fmt.Errorf("reading bundled rules %s: %w", n, err)
		}
		agent := strings.TrimSuffix(n, ".toml")
		rs, err := ParseRules(agent, "bundled rules/"+n, data)
		if err != nil {
			return nil, nil, fmt.Errorf("compiling bundled rules/%s: %w", n, err)
		}
		r.sets[agent] = rs
		r.order = append(r.order, agent)
	}
	var problems []error
	if home != "" {
		problems = r.applyOverrides(filepath.Join(home, OverrideDir))
	}
	reg := &Registry{}
	reg.cur.Store(r)
	return reg, problems, nil
}

func (r *ruleSets) applyOverrides(dir string) []error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []error{&LoadError{File: dir, Problem: "cannot read the folder: " + err.Error()}}
	}
	var problems []error
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".toml") {
			continue
		}
		path := filepath.Join(dir, name)
		agent := strings.TrimSuffix(name, ".toml")
		fallback := "; using the bundled rules"
		if _, ok := r.sets[agent]; !ok {
			fallback = "; this agent is not recognised until it is fixed"
		}
		if !validAgentName(agent) {
			problems = append(problems, &LoadError{File: path, Problem: "file name must be <agent>.toml with letters, digits, - or _" + fallback})
			continue
		}
		data, err := readBounded(path)
		if err != nil {
			problems = append(problems, &LoadError{File: path, Problem: err.Error() + fallback})
			continue
		}
		rs, err := ParseRules(agent, path, data)
		if err != nil {
			problems = append(problems, &LoadError{File: path, Problem: err.Error() + fallback})
			continue
		}
		if _, ok := r.sets[agent]; !ok {
			r.order = append(r.order, agent)
		}
		r.sets[agent] = rs
	}
	return problems
}

// MaxRulesFile is the largest rules file the app loads.
const MaxRulesFile = maxRulesFile

// CheckFile applies to one rules file the checks an override gets when the
// app starts (its name, its size, then ParseRules: TOML, known keys only,
// every regex compiles, every state known), so a file that passes here is
// one the app will use.
func CheckFile(name string, data []byte) error {
	agent, ok := strings.CutSuffix(name, ".toml")
	if !ok || !validAgentName(agent) {
		return fmt.Errorf("%s: the name must be <agent>.toml with letters, digits, - or _", name)
	}
	if len(data) > maxRulesFile {
		return fmt.Errorf("%s: larger than %d KB; a rules file only holds a few patterns", name, maxRulesFile>>10)
	}
	if _, err := ParseRules(agent, name, data); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRulesFile+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read: %v", err)
	}
	if len(data) > maxRulesFile {
		return nil, fmt.Errorf("larger than %d KB; a rules file only holds a few patterns", maxRulesFile>>10)
	}
	return data, nil
}

func validAgentName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Get returns an agent's rule set, or nil.
func (r *Registry) Get(agent string) *RuleSet {
	return r.snap().sets[agent]
}

// DisplayName is what the user calls agent ("Claude Code" for "claude"),
// from its rules file; an unknown agent keeps its id.
func (r *Registry) DisplayName(agent string) string {
	if rs := r.Get(agent); rs != nil {
		return rs.Display
	}
	return agent
}

// Agents lists known agent names in a stable order.
func (r *Registry) Agents() []string {
	return append([]string(nil), r.snap().order...)
}
