package worktree

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// ConfigFile is the repository's shared set-up, relative to its top
// folder.
const ConfigFile = ".osfoundry/worktree.toml"

// DefaultSetupLimit stops a set-up command that runs longer (a hung
// `npm ci` waiting on a network that is not there).
const DefaultSetupLimit = 10 * time.Minute

// Config is how new worktrees of a repository are set up.
type Config struct {
	Copy  []string `json:"copy" toml:"copy"`   // globs relative to the repository
	Setup string   `json:"setup" toml:"setup"` // run in the worktree before the agent
	// LimitSeconds stops the set-up command after that long (0: the
	// default, 10 minutes).
	LimitSeconds int `json:"limitSeconds" toml:"setup_limit_seconds"`
}

// Limit is the set-up command's time limit.
func (c Config) Limit() time.Duration {
	if c.LimitSeconds <= 0 {
		return DefaultSetupLimit
	}
	return time.Duration(c.LimitSeconds) * time.Second
}

// Sources say where each key of an effective Config came from: "repository"
// (ConfigFile, shared with the team), "personal" (the app's settings) or ""
// (not set).
type Sources struct {
	Copy  string `json:"copy"`
	Setup string `json:"setup"`
	Limit string `json:"limit"`
}

// Effective is the set-up new worktrees of a repository get.
type Effective struct {
	Config  Config  `json:"config"`
	Sources Sources `json:"sources"`
	File    string  `json:"file"` // the repository's ConfigFile path
	// Problem says why the repository's file could not be used ("" when
	// it was read or is absent).
	Problem string `json:"problem"`
}

// ReadRepoConfig reads ConfigFile of the repository at top; a missing file
// is an empty Config and present=false.
func ReadRepoConfig(top string) (c Config, present map[string]bool, err error) {
	b, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(ConfigFile)))
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, map[string]bool{}, nil
	}
	if err != nil {
		return Config{}, nil, fmt.Errorf("reading %s: %w", ConfigFile, err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(b, &raw); err != nil {
		return Config{}, nil, fmt.Errorf("reading %s: %w — fix the file or remove it", ConfigFile, err)
	}
	if err := toml.Unmarshal(b, &c); err != nil {
		return Config{}, nil, fmt.Errorf("reading %s: %w — fix the file or remove it", ConfigFile, err)
	}
	present = map[string]bool{}
	for k := range raw {
		present[k] = true
	}
	return c, present, nil
}

// Merge is the effective set-up of the repository at top: its ConfigFile
// wins per key over personal. A broken file is reported in Problem and the
// personal set-up is used.
func Merge(top string, personal Config) Effective {
	e := Effective{Config: personal, File: filepath.Join(top, filepath.FromSlash(ConfigFile))}
	if e.Config.Copy == nil {
		e.Config.Copy = []string{}
	}
	set := func(v bool) string {
		if v {
			return "personal"
		}
		return ""
	}
	e.Sources = Sources{Copy: set(len(personal.Copy) > 0), Setup: set(personal.Setup != ""), Limit: set(personal.LimitSeconds > 0)}
	repo, present, err := ReadRepoConfig(top)
	if err != nil {
		e.Problem = err.Error()
		return e
	}
	if present["copy"] {
		e.Config.Copy, e.Sources.Copy = append([]string{}, repo.Copy...), "repository"
	}
	if present["setup"] {
		e.Config.Setup, e.Sources.Setup = repo.Setup, "repository"
	}
	if present["setup_limit_seconds"] {
		e.Config.LimitSeconds, e.Sources.Limit = repo.LimitSeconds, "repository"
	}
	return e
}
