package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/roles"
)

// Limits of the text roles' runs: a title or a summary that takes longer
// than this is not coming.
const (
	titlingLimit    = 2 * time.Minute
	compactionLimit = 10 * time.Minute
)

// textRole runs a text-only role (Titling, Compaction) on one prompt and
// returns its answer. These runs are the app's own housekeeping around a
// chat: they are not recorded as the chat's runs, get no tools and no
// worktree, and cli:claude runs them with --disallowedTools '*'.
func (s *Service) textRole(ctx context.Context, role roles.Role, folder, prompt string, limit time.Duration, ctl *agentcli.Control) (string, error) {
	if !agentcli.IsCLIModel(role.Model) {
		return "", fmt.Errorf("the %s role uses %s, which this app cannot run: pick a cli:* model for it in Pipeline → Pipeline Roles", role.Name, role.Model)
	}
	m, err := agentcli.ParseModel(role.Model)
	if err != nil {
		return "", err
	}
	if m.Chat {
		folder = "" // chat mode reads nothing: it runs in the home folder
	}
	res, err := s.run.Run(ctx, agentcli.Job{Model: role.Model, Role: role.Name, SystemPrompt: role.Prompt,
		Turns: []agentcli.Turn{{Role: "user", Text: prompt}}, Folder: folder, Limit: limit, Control: ctl})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(res.Text), nil
}

// chatFolder is where a chat's runs work: its own folder, else the
// current Local Folder ("" when there is none).
func (s *Service) chatFolder(ctx context.Context, c Chat) string {
	if c.Folder != "" {
		return c.Folder
	}
	f, _ := s.roles.CurrentFolder(ctx) //nolint:errcheck // chat mode needs none
	return f
}

// logf writes to the app's log (Options.Logf).
func (s *Service) logf(format string, args ...any) { s.o.Logf(format, args...) }
