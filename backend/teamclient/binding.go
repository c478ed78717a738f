package teamclient

import (
	"context"
	"errors"
	"time"
)

// Binding is Settings → Team and the header's team status for the
// window: each method returns the status to show.
type Binding struct {
	c      *Client
	r      *Replica // nil: no synced projects in this window
	runner *Runner  // nil: this window runs no team work
	ctx    context.Context
}

// NewBinding binds c and its synced projects r (nil: none); ctx ends
// with the app.
func NewBinding(ctx context.Context, c *Client, r *Replica) *Binding {
	return &Binding{c: c, r: r, ctx: ctx}
}

// Join signs in to the team server at server through the system browser
// and returns once the browser came back (or the sign-in failed).
func (b *Binding) Join(server string) (Status, error) { return b.c.Join(b.ctx, server) }

// CancelJoin abandons a sign-in waiting for the browser.
func (b *Binding) CancelJoin() { b.c.CancelJoin() }

// Status asks the server now (at most 20 s); signed out at once when the
// app never joined.
func (b *Binding) Status() Status {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.c.Status(ctx)
}

// SignOut ends this computer's sign-in on the server and removes it here.
func (b *Binding) SignOut() (Status, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return b.c.SignOut(ctx)
}

// Watch checks the status every interval until ctx ends, so the header
// turns offline or connected without a click; a person who never joined
// costs nothing (Status reads one missing file).
func (c *Client) Watch(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			c.Status(cctx)
			cancel()
		}
	}
}

func (b *Binding) replica() (*Replica, error) {
	if b.r == nil {
		return nil, errors.New("synced projects are not available in this window")
	}
	return b.r, nil
}

// Projects lists this desktop's Synced and Local-only projects and the
// team's projects not synced here.
func (b *Binding) Projects() (Projects, error) {
	r, err := b.replica()
	if err != nil {
		return Projects{}, err
	}
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return r.Projects(ctx)
}

// TeamPlaces names the team workspace of each Synced project here, by
// project id (the Notes screen's "where").
func (b *Binding) TeamPlaces() (map[string]string, error) {
	r, err := b.replica()
	if err != nil {
		return map[string]string{}, nil // no synced projects in this window
	}
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return r.TeamPlaces(ctx)
}

// PreviewShare lists the Notes that moving project to Synced sends.
func (b *Binding) PreviewShare(project string) ([]string, error) {
	r, err := b.replica()
	if err != nil {
		return nil, err
	}
	return r.Preview(b.ctx, project)
}

// ShareProject moves a Local-only project to Synced in team workspace ws;
// while the server cannot be reached the move waits (Projects lists it
// under Waiting) and happens when it is back.
func (b *Binding) ShareProject(ws, project string) error {
	r, err := b.replica()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	_, err = r.ShareProject(ctx, ws, project)
	return err
}

// CancelShare drops a move to Synced that still waits for the server.
func (b *Binding) CancelShare(project string) error {
	r, err := b.replica()
	if err != nil {
		return err
	}
	return r.CancelShare(b.ctx, project)
}

// JoinProject syncs a team project to this desktop.
func (b *Binding) JoinProject(ws, project string) error {
	r, err := b.replica()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	return r.JoinProject(ctx, ws, project)
}

// StopSync makes a synced project Local-only again (its copy stays here,
// nothing is removed on the server); discard drops edits not yet sent.
func (b *Binding) StopSync(project string, discard bool) error {
	r, err := b.replica()
	if err != nil {
		return err
	}
	return r.StopSync(b.ctx, project, discard)
}

// UseRunner gives the window b "Run work for the team" (a function, not
// a method, so the window is not bound to it).
func UseRunner(b *Binding, r *Runner) {
	b.runner = r
	if b.r != nil {
		r.UseReplica(b.r) // it offers for the projects this window syncs
	}
}

// RunForTeam says whether this desktop runs work for the team (off by
// default).
func (b *Binding) RunForTeam() (bool, error) {
	if b.runner == nil {
		return false, errors.New("running work for the team is not available in this window")
	}
	return b.runner.Enabled(b.ctx)
}

// SetRunForTeam turns "Run work for the team" on or off.
func (b *Binding) SetRunForTeam(on bool) (bool, error) {
	if b.runner == nil {
		return false, errors.New("running work for the team is not available in this window")
	}
	if err := b.runner.SetEnabled(b.ctx, on); err != nil {
		return false, err
	}
	return b.runner.Enabled(b.ctx)
}
