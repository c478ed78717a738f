package terminal

import (
	"fmt"
	"strconv"
	"strings"
)

// CanPause reports whether this pane's processes can be frozen here.
func (p *Pane) CanPause() bool { return p.proc.CanPause() }

// Paused reports whether the pane is frozen by Pause.
func (p *Pane) Paused() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.paused
}

// Pause freezes everything running in the pane until Resume: the program
// and every process it started keep their state but get no CPU time; what
// the user types meanwhile waits in the terminal's input queue. Pausing a
// paused pane does nothing.
func (p *Pane) Pause() error {
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	if err := p.live(); err != nil {
		return err
	}
	if p.Paused() {
		return nil
	}
	if !p.proc.CanPause() {
		return ErrPauseUnsupported
	}
	if err := p.proc.Pause(); err != nil { // it leaves nothing half paused
		return fmt.Errorf("pausing the pane: %w", err)
	}
	p.mu.Lock()
	p.paused = !p.exited
	p.mu.Unlock()
	return nil
}

// Resume continues a paused pane. Resuming a pane that is not paused does
// nothing.
func (p *Pane) Resume() error { return p.resume(false) }

// resume continues the pane, first clearing the screen for a program that
// redraws its whole UI when continued (see clearForRedraw).
func (p *Pane) resume(clear bool) error {
	p.pauseMu.Lock()
	defer p.pauseMu.Unlock()
	if err := p.live(); err != nil {
		return err
	}
	if !p.Paused() {
		return nil
	}
	if clear {
		p.clearForRedraw()
	}
	if err := p.proc.Resume(); err != nil {
		return fmt.Errorf("resuming the pane: %w", err)
	}
	p.mu.Lock()
	p.paused = false
	p.mu.Unlock()
	return nil
}

// clearForRedraw scrolls the main screen into the scrollback and homes the
// cursor, as if `clear` ran before `fg`. Programs redraw when continued:
// Claude Code forgets its last frame and draws the whole UI again from the
// cursor, which would leave the frame it showed at the pause — a permission
// prompt already answered, say — above the new one, where it reads as
// "needs you". On a clean screen the redraw is all there is; what was shown
// stays in the scrollback. Only for such programs (Manager.RedrawsOnResume):
// one that just goes on printing would be left with a blank screen. Full-
// screen programs (alternate screen) repaint it whole and are left alone.
func (p *Pane) clearForRedraw() {
	if p.emu.AltScreen() {
		return
	}
	_, rows := p.emu.Size()
	seq := []byte("\x1b[" + strconv.Itoa(rows) + ";1H" + strings.Repeat("\n", rows) + "\x1b[H")
	p.batch.add(func() []byte { return p.emu.WriteUI(seq, nil) })
	if p.opts.OnChange != nil {
		p.opts.OnChange()
	}
}

func (p *Pane) live() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return ErrClosed
	case p.exited:
		return ErrExited
	}
	return nil
}

// Pause freezes pane id (see Pane.Pause) and tells observers and the UI.
func (m *Manager) Pause(id string) error { return m.setPaused(id, true) }

// Resume continues pane id (see Pane.Resume) and tells observers and the UI.
func (m *Manager) Resume(id string) error { return m.setPaused(id, false) }

// OnPause registers fn, called after a pane was paused or resumed.
func (m *Manager) OnPause(fn func(id string, paused bool)) {
	m.mu.Lock()
	m.onPause = append(m.onPause, fn)
	m.mu.Unlock()
}

// RedrawsOnResume tells the manager which panes run a program that draws
// its whole UI again from the cursor when continued; their screen is
// cleared before they resume (see clearForRedraw).
func (m *Manager) RedrawsOnResume(fn func(id string) bool) {
	m.mu.Lock()
	m.redraws = fn
	m.mu.Unlock()
}

func (m *Manager) setPaused(id string, pause bool) error {
	p, err := m.Get(id)
	if err != nil {
		return err
	}
	was := p.Paused()
	if pause {
		err = p.Pause()
	} else {
		m.mu.Lock()
		redraws := m.redraws
		m.mu.Unlock()
		err = p.resume(redraws != nil && redraws(id))
	}
	if err != nil {
		return err
	}
	if p.Paused() == was {
		return nil
	}
	m.mu.Lock()
	fns := m.onPause
	m.mu.Unlock()
	for _, f := range fns {
		f(id, pause)
	}
	m.emit.Emit(EventPanes, nil)
	return nil
}
