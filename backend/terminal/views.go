package terminal

import (
	"sync"
	"sync/atomic"
)

// Output events go only to panes a view shows. Each event reaches the web
// view as a JavaScript call (Wails evaluates one per event), and the 12-pane
// soak showed the web process growing while the Terminal screen showed one
// pane and eleven others printed behind it: their events were sent, parsed
// and dropped for nothing. A pane without a view keeps its output in its
// recent-output ring and emulator only; a view that attaches draws that
// (Snapshot) and receives the batches after it.
//
// A view counts as attached from Attach until its Detach. A window that
// reloads without detaching leaves its count up: the pane then keeps
// sending, which costs what it cost before and never loses output.

// views counts the attached views per pane id.
type views struct{ m sync.Map } // id → *atomic.Int32

func (v *views) of(id string) *atomic.Int32 {
	c, _ := v.m.LoadOrStore(id, new(atomic.Int32))
	return c.(*atomic.Int32)
}

func (v *views) forget(id string) { v.m.Delete(id) }

func (v *views) reset() { v.m.Clear() }

// Attach counts a view on pane id and returns what it must draw first and
// the number of the last batch that includes. The count goes up before the
// snapshot is taken, so every batch after the snapshot is sent.
func (m *Manager) Attach(id string) (Attachment, error) {
	p, err := m.Get(id)
	if err != nil {
		return Attachment{}, err
	}
	m.views.of(id).Add(1)
	seq, restored, data := p.attachment()
	return Attachment{Seq: seq, Restored: restored, Data: data}, nil
}

// Detach ends one view's Attach; a Detach without one does nothing.
func (m *Manager) Detach(id string) {
	c := m.views.of(id)
	for {
		n := c.Load()
		if n <= 0 || c.CompareAndSwap(n, n-1) {
			return
		}
	}
}
