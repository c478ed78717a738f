package roles

import (
	"context"
	"fmt"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// CLI is one row of the External AI tab.
type CLI struct {
	agentcli.Install
	Enabled bool `json:"enabled"`
	// Version is the CLI's own `--version`; VersionError says why it is
	// missing when the binary could not tell.
	Version      string `json:"version,omitempty"`
	VersionError string `json:"versionError,omitempty"`
}

// ExternalAI lists the Claude Code and Codex rows.
func (s *Service) ExternalAI(ctx context.Context) []CLI {
	var out []CLI
	for _, a := range []agentcli.Agent{agentcli.Claude, agentcli.Codex} {
		c := CLI{Install: s.run.Discover(a), Enabled: true}
		if c.Installed {
			if v, err := s.run.Version(ctx, a); err != nil {
				c.VersionError = err.Error()
			} else {
				c.Version = v
			}
		}
		var on int
		if err := s.db.QueryRowContext(ctx, `SELECT enabled FROM pipeline_cli WHERE agent = ?`, string(a)).Scan(&on); err == nil {
			c.Enabled = on == 1
		}
		out = append(out, c)
	}
	return out
}

// SetEnabled turns a CLI on or off for the pipeline.
func (s *Service) SetEnabled(ctx context.Context, agent string, on bool) (CLI, error) {
	a, err := ParseAgent(agent)
	if err != nil {
		return CLI{}, err
	}
	v := 0
	if on {
		v = 1
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_cli(agent, enabled) VALUES(?,?)
		ON CONFLICT(agent) DO UPDATE SET enabled = excluded.enabled`, string(a), v); err != nil {
		return CLI{}, fmt.Errorf("saving the %s setting: %w", a.Title(), err)
	}
	for _, c := range s.ExternalAI(ctx) {
		if c.Agent == a {
			return c, nil
		}
	}
	return CLI{}, fmt.Errorf("unknown CLI %q", agent)
}

// SignIn is what the "Sign in" button opens in a Terminal pane: the argv,
// the scrubbed environment, the folder, and the hint to show.
type SignIn struct {
	Argv []string `json:"argv"`
	Env  []string `json:"-"`
	Dir  string   `json:"dir"`
	Hint string   `json:"hint"`
}

// SignInCommand returns the Sign in terminal's command. The app passes it
// to terminal.Manager.Create(terminal.Options{Dir, Argv, Env}).
func (s *Service) SignInCommand(agent string) (SignIn, error) {
	a, err := ParseAgent(agent)
	if err != nil {
		return SignIn{}, err
	}
	argv, err := s.run.SignInCommand(a)
	if err != nil {
		return SignIn{}, err
	}
	si := SignIn{Argv: argv, Env: s.run.ChildEnv(a), Dir: s.run.Env().Home}
	if a == agentcli.Claude {
		si.Hint = agentcli.ClaudeSignInHint
	}
	return si, nil
}

// ParseAgent reads a CLI name: claude or codex.
func ParseAgent(s string) (agentcli.Agent, error) {
	switch agentcli.Agent(s) {
	case agentcli.Claude, agentcli.Codex:
		return agentcli.Agent(s), nil
	}
	return "", fmt.Errorf("unknown CLI %q: use claude or codex", s)
}
