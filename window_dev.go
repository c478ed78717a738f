//go:build dev

package main

// The dev build is driven by a browser (the end-to-end runs, never
// packaged): its own window starts hidden, so it does not draw a second
// copy of the screens that would tell the panes its own sizes.
const startHidden = true
