// Package terminal runs the app's terminal panes: each pane is a real PTY
// (ConPTY on Windows) holding a shell or an agent CLI, with an emulated
// screen (vt10x behind a filter) kept in the backend so the app knows
// what is on a pane right now without asking the web view. Output goes to
// the window in batches (a frame's worth at a time, never an event per PTY
// read); input is written in the order it was typed. The Manager restores
// the saved panes at start, pauses and resumes them, and ends a pane's
// whole process group when it closes or the app quits. A pane may start on
// a branch of its own: backend/worktree makes the worktree and runs its
// set-up, the Manager gives the pane a port offset and keeps its
// +added −removed current; closing the pane keeps the worktree. While the
// person keeps scrollback, each pane's recent output is written to a
// ScrollbackStore and drawn again above the restored pane (scrollback.go).
//
// It depends only on leaf packages (shellenv, worktree): it never decides what an agent's state is (that is
// backend/panestate with backend/detect) and never imports the Wails
// runtime; events leave through the Emitter interface.
package terminal
