package inventory

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// EventChanged is the event the app emits when the session list changed
// (mirrored in frontend/src/lib/events.ts). It carries no payload: the
// screen re-reads the list.
const EventChanged = "inventory:changed"

// OpenPane starts a terminal pane running argv (never a shell string) in
// dir and returns the pane's id. The app passes its terminal manager.
type OpenPane func(dir string, argv []string) (paneID string, err error)

// Binding is what the External agents screen binds: thin methods with
// plain argument and result types over a Service (which takes contexts and
// callbacks that a window binding cannot pass).
type Binding struct {
	svc  *Service
	open OpenPane
}

// NewBinding binds svc; open starts the panes "Open in Terminal" creates.
func NewBinding(svc *Service, open OpenPane) *Binding {
	return &Binding{svc: svc, open: open}
}

// callTimeout bounds one call from the window: a plan runs `git` and the
// CLI's `--help` once; a transcript page reads a bounded slice of a file.
const callTimeout = 20 * time.Second

func callCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), callTimeout)
}

// Sessions returns sessions newest first, filtered by app id (empty: all)
// and by a case-insensitive substring of title, folder, branch, app name
// or id.
func (b *Binding) Sessions(query string, app string) []Session {
	return b.svc.List(query, AppID(app))
}

// Apps returns the twelve apps with their counts and on/off state (chips
// and the Apps menu).
func (b *Binding) Apps() []AppInfo { return b.svc.Apps() }

// SetAppEnabled turns an app on or off; an app that is off is never read
// on this device.
func (b *Binding) SetAppEnabled(app string, on bool) error {
	ctx, cancel := callCtx()
	defer cancel()
	return b.svc.SetAppEnabled(ctx, AppID(app), on)
}

// Refresh re-reads the stores that changed; it reports whether the list
// changed.
func (b *Binding) Refresh() (bool, error) {
	ctx, cancel := callCtx()
	defer cancel()
	return b.svc.Refresh(ctx)
}

// Detail returns one session's recorded metadata.
func (b *Binding) Detail(ref string) (Detail, error) { return b.svc.Detail(ref) }

// Transcript returns one page of the conversation from cursor (0 first,
// then Page.Next), at most limit rows.
func (b *Binding) Transcript(ref string, cursor int64, limit int) (Page, error) {
	ctx, cancel := callCtx()
	defer cancel()
	return b.svc.Transcript(ctx, ref, cursor, limit)
}

// Plan returns how a relaunch would go with the values the user ticked
// (the "From the app" panel), without starting anything.
func (b *Binding) Plan(ref string, keep []string) (Plan, error) {
	ctx, cancel := callCtx()
	defer cancel()
	p, err := b.svc.PlanResume(ctx, ref, PlanOptions{Keep: keep})
	if err != nil {
		return Plan{}, explainPlanError(err)
	}
	return p, nil
}

// OpenRequest is "Open in Terminal" as the screen sends it.
type OpenRequest struct {
	Ref string `json:"ref"`
	// Keep names the permissive values the user ticked for this launch
	// (ValueNote labels); nothing permissive is passed without a tick.
	Keep []string `json:"keep"`
	// OpenAnyway is the answer "Open anyway" to the branch question.
	OpenAnyway bool `json:"openAnyway"`
}

// OpenResult is either a started pane (PaneID) or a question to ask first
// (Ask, Question: the recorded branch differs from the folder's).
type OpenResult struct {
	PaneID   string `json:"paneId,omitempty"`
	Ask      bool   `json:"ask"`
	Question string `json:"question,omitempty"`
	Plan     Plan   `json:"plan"`
}

// OpenInTerminal relaunches a session in a new terminal pane in its
// recorded folder. A missing folder is refused (it is never opened
// anywhere else); a branch mismatch returns the question unless
// OpenAnyway is set. Nothing is ever checked out.
func (b *Binding) OpenInTerminal(req OpenRequest) (OpenResult, error) {
	if b.open == nil {
		return OpenResult{}, errors.New("opening in Terminal: terminal panes are not available in this build")
	}
	ctx, cancel := callCtx()
	defer cancel()
	plan, err := b.svc.PlanResume(ctx, req.Ref, PlanOptions{Keep: req.Keep})
	if err != nil {
		return OpenResult{}, explainPlanError(err)
	}
	if plan.Ask && !req.OpenAnyway {
		return OpenResult{Ask: true, Question: plan.Question, Plan: plan}, nil
	}
	if len(plan.Argv) == 0 {
		return OpenResult{}, fmt.Errorf("opening in Terminal: %w", ErrNotResumable)
	}
	id, err := b.open(plan.Folder, plan.Argv)
	if err != nil {
		return OpenResult{Plan: plan}, fmt.Errorf("opening in Terminal: %w", err)
	}
	return OpenResult{PaneID: id, Plan: plan}, nil
}

// explainPlanError words the refusals the way the screen shows them.
func explainPlanError(err error) error {
	switch {
	case errors.Is(err, ErrFolderMissing):
		return fmt.Errorf("Open in Terminal is refused: %w", err)
	case errors.Is(err, ErrUnsafeValue):
		return fmt.Errorf("Open in Terminal is refused: a value recorded in the session file is unsafe to pass on (%w)", err)
	case errors.Is(err, ErrNotResumable):
		return fmt.Errorf("Open in Terminal is not possible: %w", err)
	}
	return fmt.Errorf("planning the relaunch: %w", err)
}

// EventTextIndex carries the conversation index's TextStatus while it is
// built (mirrored in frontend/src/lib/events.ts).
const EventTextIndex = "inventory:textindex"

// TextSearch says whether "search in conversations" is on and how far its
// index is.
func (b *Binding) TextSearch() TextStatus { return b.svc.TextStatus() }

// SetTextSearch turns "search in conversations" on (its index is built in
// the background, progress in EventTextIndex) or off (the index is
// dropped).
func (b *Binding) SetTextSearch(on bool) (TextStatus, error) {
	ctx, cancel := callCtx()
	defer cancel()
	return b.svc.SetTextSearch(ctx, on)
}

// SearchText returns the sessions whose conversation contains query, with
// the words around the match.
func (b *Binding) SearchText(query string) ([]TextHit, error) {
	ctx, cancel := callCtx()
	defer cancel()
	return b.svc.SearchText(ctx, query)
}
