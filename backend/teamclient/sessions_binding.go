package teamclient

import (
	"context"
	"time"
)

// SessionsBinding is the "Share this computer's sessions" switch of
// Settings → Team for the window.
type SessionsBinding struct {
	s   *SessionShare
	ctx context.Context
}

// NewSessionsBinding binds s; ctx ends with the app.
func NewSessionsBinding(ctx context.Context, s *SessionShare) *SessionsBinding {
	return &SessionsBinding{s: s, ctx: ctx}
}

// View is the switch, what is still owed to the server, and the sessions
// of the person's sharing desktops.
func (b *SessionsBinding) View() SessionsView {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	_ = b.s.Refresh(ctx) // offline: the last list read, and the switch
	return b.s.View(ctx)
}

// SetSharing turns sharing on or off; off removes this computer's sessions
// from the server now, or as soon as it can be reached (the view says so).
func (b *SessionsBinding) SetSharing(on bool) (SessionsView, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.s.SetSharing(ctx, on)
}

// SetAnswers turns "Answer from the team server's page" on or off; off,
// no answer given on the page is ever typed on this computer.
func (b *SessionsBinding) SetAnswers(on bool) (SessionsView, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.s.SetAnswers(ctx, on)
}

// Quiet is the person's quiet hours, read from the team server.
func (b *SessionsBinding) Quiet() (QuietHours, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.s.Quiet(ctx)
}

// SetQuiet saves quiet hours (from, to as "22:00") in timeZone, an IANA
// name (the window passes its own).
func (b *SessionsBinding) SetQuiet(from, to, timeZone string) (QuietHours, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.s.SetQuiet(ctx, from, to, timeZone)
}

// ClearQuiet turns quiet hours off.
func (b *SessionsBinding) ClearQuiet() (QuietHours, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.s.ClearQuiet(ctx)
}

// Browsers lists the browsers and phones signed in to the team server as
// the person, each of which may see and answer from the Needs you page.
func (b *SessionsBinding) Browsers() ([]SignedInBrowser, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.s.Browsers(ctx)
}

// RevokeBrowser signs one of them out at once (a lost phone).
func (b *SessionsBinding) RevokeBrowser(id string) ([]SignedInBrowser, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.s.RevokeBrowser(ctx, id)
}
