package board

import (
	"errors"
	"fmt"
)

// Pauser is what a Source implements when its sessions can be frozen and
// continued (terminal panes). Sources without it show no Pause button and
// Board.Pause answers ErrNoPause.
type Pauser interface {
	Pause(id string) error
	Resume(id string) error
}

// ErrNoPause: the session's source cannot freeze it (worded like the
// reference article's board messages, docs/reference.md §1:
// shown to the user as is).
var ErrNoPause = errors.New("Pausing is not available for this session.")

// Pause freezes a running, waiting or idle session so it can be ended from
// the Paused column (or resumed). Pausing a paused session does nothing.
func (b *Board) Pause(key string) error { return b.setPaused(key, true) }

// Resume continues a paused session. Resuming a session that is not paused
// does nothing.
func (b *Board) Resume(key string) error { return b.setPaused(key, false) }

func (b *Board) setPaused(key string, pause bool) error {
	src, c, err := b.lookup(key)
	if err != nil {
		return err
	}
	switch {
	case c.State == Done || c.State == Failed:
		return ErrEnded
	case pause && c.State == Paused, !pause && c.State != Paused:
		return nil
	}
	p, ok := src.(Pauser)
	if !ok || (pause && !c.CanPause) {
		return ErrNoPause
	}
	if pause {
		err = p.Pause(c.ID)
	} else {
		err = p.Resume(c.ID)
	}
	if err != nil {
		if errors.Is(err, ErrEnded) || errors.Is(err, ErrNoPause) {
			return err
		}
		verb := "pausing"
		if !pause {
			verb = "resuming"
		}
		return fmt.Errorf("%s the session: %w", verb, err)
	}
	b.Changed()
	return nil
}
