// Package msgbox shows a native message box for the one moment the app has
// no other way to speak: a start that fails when it was opened by a
// double-click, with no terminal to print to. Pure Go on every OS, so the
// CGO-free command line can use it when the window app cannot even load.
package msgbox

import "strings"

// maxText keeps a box on screen: a loader or panic text can be long.
const maxText = 4000

// Show blocks until the user closes the box, or returns why no box could
// be shown (the caller has already written the text to its log).
func Show(title, text string) error {
	text = strings.ReplaceAll(strings.ToValidUTF8(text, "?"), "\x00", " ")
	if len(text) > maxText {
		text = text[:maxText] + "…"
	}
	return show(title, text)
}
