package main

import (
	"github.com/osfoundry/desktop/backend/approvals"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/inventory"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/review"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/settings"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/tools"
	"github.com/osfoundry/desktop/backend/windowlinks"
)

// Events is bound only so that `make bindings` writes the TypeScript of
// every event payload: Wails' generator emits the types that bound methods
// take or return, and an event is no method. The window never calls it;
// src/lib/events.ts maps event names to EventPayloads' fields.
type Events struct{}

// EventPayloads has one field per event the window listens to, its JSON
// name the event's name and its type the payload the Go code emits, so a
// changed payload fails svelte-check like a changed method. Events without
// a payload (panes:changed, inventory:changed) are not here.
type EventPayloads struct {
	PaneOutput terminal.OutputEvent `json:"pane:output"`
	PaneExit   terminal.ExitEvent   `json:"pane:exit"`
	// A pane's detected state changed.
	PaneState panestate.PaneState `json:"panes:state"`
	// A desktop notification for this pane id was clicked.
	PaneFocus string `json:"panes:focus"`
	// A pane branch's review comments were sent or queued, or it was finished.
	ReviewChanged review.ChangedEvent `json:"review:changed"`
	// A Note committed a new version.
	NotesChanged notes.ChangedEvent `json:"notes:changed"`
	// A Record item committed a new version, from any writer.
	RecordsChanged notes.RecordsChangedEvent `json:"records:changed"`
	// A post was committed in a Message channel, by the person or an assistant.
	MessagesPosted messages.PostedEvent `json:"messages:posted"`
	// A run's progress line, partial text, session id or end.
	PipelineRun runs.RunEvent `json:"pipeline:run"`
	// A sign-in check started, shows a new status line, or ended.
	PipelineVerify roles.VerifyState `json:"pipeline:verify"`
	// Chats, runs or roles changed: the chat id or "".
	PipelineChanged string `json:"pipeline:changed"`
	// A tool call waits for Approve / Decline.
	Approval tools.ApprovalRequest `json:"tools:approval"`
	// An approval request was answered, cancelled or expired.
	ApprovalDone approvals.DoneEvent `json:"tools:approval-done"`
	// A fleet, loop or graph changed: a child started, showed progress or ended.
	OrchestrateChanged orchestrate.Status `json:"orchestrate:changed"`
	// The Sessions board's cards after any change.
	BoardChanged []board.Card `json:"board:changed"`
	// External agents' conversation index read more sessions (or finished).
	InventoryTextIndex inventory.TextStatus `json:"inventory:textindex"`
	// A notice over any screen, e.g. a link that opened nothing.
	Notice windowlinks.Notice `json:"app:notice"`
	// A window route to show, e.g. "/chat?chat=<id>".
	Open string `json:"app:open"`
	// The window was asked to close while these panes are at work.
	QuitAsked []panestate.BusyPane `json:"app:quit-asked"`
	// Settings → Terminal was saved: every open pane takes the new look.
	TerminalLook settings.TerminalPrefs `json:"settings:terminal"`
	// The joined team server's status changed (connected, offline, signed out, expired).
	TeamStatus teamclient.Status `json:"team:status"`
	// A synced Note's edit lost the race on the team server: the person's
	// text, kept as an editor draft beside the server's.
	NotesDraft notes.Draft `json:"notes:draft"`
	// "Share this computer's sessions" or the person's shared sessions changed.
	TeamSessions teamclient.SessionsView `json:"team:sessions"`
	// A delete of a synced knowledge base, article or Record met an edit
	// (a teammate's, or the person's here): the edited copy was kept.
	KeptAfterDelete teamclient.KeptAfterDelete `json:"team:kept-after-delete"`
}

// Payloads returns nothing of use; its result type is the point.
func (Events) Payloads() EventPayloads { return EventPayloads{} }
