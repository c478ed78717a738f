package inventory

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/shellenv"
)

// Runner runs a program directly (never through a shell). Tests inject a
// fake; the app uses ExecRunner.
type Runner interface {
	// Output runs name with args in dir and returns its combined output.
	Output(ctx context.Context, dir, name string, args ...string) ([]byte, error)
	// LookPath resolves a program name to a path.
	LookPath(name string) (string, error)
}

// ExecRunner is the real Runner.
type ExecRunner struct {
	// Environ, when set, is the environment programs are looked up in and
	// run with (the window's: its login shell's PATH, backend/shellenv);
	// nil is the process's own.
	Environ func() []string
}

var _ Runner = ExecRunner{}

// Output runs the program with a 10 s limit.
func (r ExecRunner) Output(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var env []string
	if r.Environ != nil {
		env = r.Environ()
		p, err := shellenv.LookPathIn(name, env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		name = p
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, nil
	return cmd.CombinedOutput()
}

// LookPath finds name in Environ's PATH, or the process's own.
func (r ExecRunner) LookPath(name string) (string, error) {
	if r.Environ != nil {
		return shellenv.LookPathIn(name, r.Environ())
	}
	return exec.LookPath(name)
}

// cliCaps is what an installed CLI's --help says it accepts.
type cliCaps struct {
	known  bool                // the help text was read
	flags  map[string]bool     // "--model", "-m", …
	values map[string][]string // flag → accepted values (nil: any / not listed)
}

func (c cliCaps) has(flags ...string) bool {
	for _, f := range flags {
		if c.flags[f] {
			return true
		}
	}
	return false
}

// accepts reports whether value is listed for any of flags; ok is false
// when the help lists no values for them.
func (c cliCaps) accepts(value string, flags ...string) (yes, listed bool) {
	for _, f := range flags {
		if vs := c.values[f]; vs != nil {
			for _, v := range vs {
				if v == value {
					return true, true
				}
			}
			listed = true
		}
	}
	return false, listed
}

var (
	// An option line starts at most six columns in (commander: 2; clap: 2
	// for "-c, --config", 6 for "    --last"); a wrapped description line
	// sits further right, even when it begins with a flag it mentions.
	flagLine   = lazy.Regexp(`^ {0,6}(-[A-Za-z0-9]|--[A-Za-z0-9][A-Za-z0-9-]*)\b`)
	flagToken  = lazy.Regexp(`(?:^|[\s,])(--?[A-Za-z0-9][A-Za-z0-9-]*)`)
	choicesRe  = lazy.Regexp(`choices:\s*((?:"[^"]*"(?:,\s*)?)+)`)
	quotedRe   = lazy.Regexp(`"([^"]*)"`)
	possibleRe = lazy.Regexp(`\[possible values:\s*([^\]]*)\]`)
	listItemRe = lazy.Regexp(`^\s*-\s+([A-Za-z0-9][A-Za-z0-9-]*)\s*(?::|$)`)
	// A description that ends by listing the levels in plain parentheses,
	// as claude 2.1.328 does for --effort: "(low, medium, high, xhigh, max)".
	plainListRe = lazy.Regexp(`\(([a-z][A-Za-z0-9-]*(?:, [a-z][A-Za-z0-9-]*)+)\)\.?$`)
)

// parseHelp reads flags and their accepted values from commander.js style
// (`(choices: "a", "b")`) and clap style (`[possible values: a, b]` or a
// "Possible values:" list of "- a: …" lines) help text. Each option's whole
// description is read as one text: both CLIs wrap long lists over several
// lines when printing to a pipe.
func parseHelp(text string) cliCaps {
	c := cliCaps{known: true, flags: map[string]bool{}, values: map[string][]string{}}
	var cur []string
	var desc []string
	add := func(v string) {
		for _, f := range cur {
			c.values[f] = append(c.values[f], v)
		}
	}
	flush := func() {
		d := strings.Join(desc, " ")
		desc = desc[:0]
		if m := plainListRe().FindStringSubmatch(d); m != nil && strings.Contains(d, "<") && !strings.Contains(d, "choices:") {
			for _, v := range strings.Split(m[1], ", ") {
				add(v)
			}
		}
		if m := choicesRe().FindStringSubmatch(d); m != nil {
			for _, q := range quotedRe().FindAllStringSubmatch(m[1], -1) {
				add(q[1])
			}
		}
		if m := possibleRe().FindStringSubmatch(d); m != nil {
			for _, v := range strings.Split(m[1], ",") {
				if v = strings.TrimSpace(v); v != "" {
					add(v)
				}
			}
		}
	}
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case flagLine().MatchString(line) && !listItemRe().MatchString(line):
			flush()
			cur = nil
			for _, m := range flagToken().FindAllStringSubmatch(strings.SplitN(trimmed, "  ", 2)[0], -1) {
				cur = append(cur, m[1])
				c.flags[m[1]] = true
			}
			desc = append(desc, trimmed)
		case trimmed != "" && trimmed == line:
			// A section heading ("Options:", "Commands:") ends the option.
			flush()
			cur = nil
		case len(cur) > 0:
			if m := listItemRe().FindStringSubmatch(line); m != nil {
				add(m[1])
				continue
			}
			desc = append(desc, trimmed)
		}
	}
	flush()
	return c
}

// helpCache remembers parsed help per binary identity (path, size, mtime)
// and subcommand, so a relaunch never runs `--help` twice for one install.
type helpCache struct {
	mu sync.Mutex
	m  map[string]cliCaps
}

func (h *helpCache) get(ctx context.Context, r Runner, bin string, args ...string) cliCaps {
	p, err := r.LookPath(bin)
	if err != nil {
		return cliCaps{}
	}
	key := p + "\x00" + strings.Join(args, " ")
	if st, err := os.Stat(p); err == nil {
		key += fmt.Sprintf("\x00%d\x00%d", st.Size(), st.ModTime().UnixNano())
	}
	h.mu.Lock()
	if c, ok := h.m[key]; ok {
		h.mu.Unlock()
		return c
	}
	h.mu.Unlock()
	out, err := r.Output(ctx, "", p, args...)
	if err != nil && len(out) == 0 {
		return cliCaps{}
	}
	c := parseHelp(string(out))
	h.mu.Lock()
	if h.m == nil {
		h.m = map[string]cliCaps{}
	}
	h.m[key] = c
	h.mu.Unlock()
	return c
}
