package wailsui

import "sync"

// Shown is bound for the page to say that its first frame is on screen
// (frontend/src/main.ts). Work that can wait, and that would take the
// cores the web view needs while it starts, runs then: once, whoever
// calls first (the page, or the app's timer for a page that never calls).
type Shown struct {
	once sync.Once
	run  func()
}

// NewShown returns a Shown that runs run at the first FirstFrame.
func NewShown(run func()) *Shown { return &Shown{run: run} }

// FirstFrame runs the waiting work unless it ran already.
func (s *Shown) FirstFrame() { s.once.Do(s.run) }
