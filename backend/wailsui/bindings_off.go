//go:build !bindings

package wailsui

// GeneratingBindings is false in every build that opens the window.
const GeneratingBindings = false
