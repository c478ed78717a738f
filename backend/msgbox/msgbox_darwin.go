package msgbox

import "os/exec"

// show asks the system's AppleScript runner for an alert; the title and
// text are arguments of the script, never part of its source.
func show(title, text string) error {
	return exec.Command("/usr/bin/osascript",
		"-e", "on run argv",
		"-e", "display alert (item 1 of argv) message (item 2 of argv) as critical",
		"-e", "end run", title, text).Run()
}
