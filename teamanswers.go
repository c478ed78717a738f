package main

import (
	"fmt"

	"github.com/osfoundry/desktop/backend/panetools"
	"github.com/osfoundry/desktop/backend/remoteanswer"
)

// wireRemoteAnswers lets answers from the team server's Needs you page
// reach the panes, through runtime_answer's guard, and the app's chats and
// agent runs, through the approval queue and the chat, all into the tool
// audit (still only while the person turns the switch on in Settings → Team).
func (a *App) wireRemoteAnswers() error {
	panes, err := panetools.New(a.panes, a.watch.Registry())
	if err != nil {
		return fmt.Errorf("preparing answers from the team server's page: %w", err)
	}
	t, err := remoteanswer.New(panes, panes.Blocked, a.work.Audit)
	if err != nil {
		return fmt.Errorf("preparing answers from the team server's page: %w", err)
	}
	a.sessions.SetTypist(t)
	// The app's own chats and agent runs: approvals their runs asked for,
	// and chats' questions.
	app, err := remoteanswer.NewApp(a.work.Approvals, a.work.Chat, a.work.Audit)
	if err != nil {
		return fmt.Errorf("preparing answers from the team server's page: %w", err)
	}
	a.sessions.SetAppAnswerer(app.WithJobs(a.work.Orchestrator))
	return nil
}
