//go:build bindings

package wailsui

// GeneratingBindings: this build (make bindings) only writes the
// TypeScript of the bound services and opens no window. Wails' own
// generator is the bindings-tagged app itself, run: it reflects on the
// services handed to Run, so the app builds them over a throwaway data
// folder and calls Run as usual.
const GeneratingBindings = true
