package remoteanswer

import (
	"fmt"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panetools"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/workers"
)

// ForDesktop lets answers from the team server's Needs you page reach the
// desktop's panes, through runtime_answer's guard, and the app's chats and
// agent runs, through the approval queue and the chat, all into the tool
// audit (still only while the person turns the switch on in Settings → Team).
func ForDesktop(share *teamclient.SessionShare, term panetools.Terminal, rules *detect.Registry, w *workers.Workers) error {
	panes, err := panetools.New(term, rules)
	if err != nil {
		return fmt.Errorf("preparing answers from the team server's page: %w", err)
	}
	t, err := New(panes, panes.Blocked, w.Audit)
	if err != nil {
		return fmt.Errorf("preparing answers from the team server's page: %w", err)
	}
	share.SetTypist(t)
	// The app's own chats and agent runs: approvals their runs asked for,
	// and chats' questions.
	app, err := NewApp(w.Approvals, w.Chat, w.Audit)
	if err != nil {
		return fmt.Errorf("preparing answers from the team server's page: %w", err)
	}
	share.SetAppAnswerer(app.WithJobs(w.Orchestrator))
	return nil
}
