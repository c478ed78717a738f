package board

import (
	"context"
	"database/sql"
	"fmt"
	"io"

	"github.com/osfoundry/desktop/backend/inventory"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/terminal"
)

// WindowOptions are the board's sources in the window.
type WindowOptions struct {
	Knowledge string // the knowledge folder (New)
	Emitter   Emitter
	// DB keeps ended sessions past this run (Keep).
	DB        *sql.DB
	Inventory *inventory.Service // the agents' own session stores
	Panes     *terminal.Manager
	Watcher   *panestate.Watcher // detection per pane, and its rules
	// Chats offers the chats and agent runs (chat.BoardSource), Jobs the
	// Team and Loop cards (orchestrate.BoardSource).
	Chats Watched
	Jobs  Watched
	// RuleProblems are the broken detection-rule overrides the rules were
	// loaded without (panestate.Open).
	RuleProblems []error
	// Shelf keeps Done summaries as knowledge articles too (nil: files only).
	Shelf Shelf
	// Log gets what the board works without; nil discards it.
	Log io.Writer
	// PullRequests shows on a branch's card the request opened for it
	// (nil: none shown).
	PullRequests PullRequests
}

// ForWindow builds the Sessions board over the panes, the agents' session
// stores, the pipeline and the orchestrator, and binds it. rulesReloaded
// logs the detection-rule overrides a reload could not use and shows them
// on the board (rulesupdate.ForWindow's reloaded); it is not a method, so
// the window cannot call it.
func ForWindow(ctx context.Context, opts WindowOptions) (svc *Service, rulesReloaded func(problems []error)) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	b := New(opts.Knowledge, opts.Emitter)
	b.SetShelf(opts.Shelf)
	if err := b.Keep(ctx, opts.DB); err != nil {
		fmt.Fprintln(opts.Log, "osfoundry: ended sessions will not outlive this run:", err)
	}
	sessions := NewStoreSessions(opts.Inventory, opts.Watcher.Registry().DisplayName)
	b.SetSessions(sessions)
	term := NewTerminal(opts.Panes, opts.Watcher, b.Changed)
	term.SetSessions(sessions)
	b.Add("terminal", term)
	opts.Chats.Watch(b.Changed)
	b.Add("pipeline", opts.Chats)
	opts.Jobs.Watch(b.Changed)
	b.Add("orchestrate", opts.Jobs)
	b.SetPullRequests(opts.PullRequests)
	svc = NewService(b, opts.Watcher)
	rulesReloaded = func(problems []error) {
		msgs := make([]string, 0, len(problems))
		for _, p := range problems {
			fmt.Fprintln(opts.Log, "osfoundry:", p)
			msgs = append(msgs, p.Error())
		}
		svc.SetRuleProblems(msgs)
	}
	rulesReloaded(opts.RuleProblems)
	return svc, rulesReloaded
}
