package terminal

import "os"

// EnvFilter decides what a pane's program gets from the environment the
// pane was given: argv is what will run (empty: the shell). It returns the
// environment to use and a notice, shown dim as the pane's first line
// before the program starts, saying what was changed ("" when nothing).
// The app's filter removes ANTHROPIC_API_KEY from a pane it starts as
// Claude Code, so work on the subscription is not billed at API rates.
type EnvFilter func(argv, env []string) (out []string, notice string)

// SetEnvFilter sets the filter used by every later Create and Restore
// (nil: panes get their environment unchanged).
func (m *Manager) SetEnvFilter(f EnvFilter) {
	m.mu.Lock()
	m.envFilter = f
	m.mu.Unlock()
}

// filterEnv applies f to the pane o describes, the way Start will run it.
func filterEnv(f EnvFilter, o Options) Options {
	if f == nil {
		return o
	}
	argv := o.Argv
	if len(o.RunArgv) > 0 {
		argv = o.RunArgv
	}
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	var notice string
	o.Env, notice = f(argv, env)
	if notice != "" && o.Notice != "" {
		o.Notice += "\r\n" + notice
	} else if notice != "" {
		o.Notice = notice
	}
	return o
}

// noticeLine is a notice as the pane shows it: dim, on a line of its own.
func noticeLine(s string) []byte {
	return []byte("\x1b[2m" + s + "\x1b[22m\r\n")
}
