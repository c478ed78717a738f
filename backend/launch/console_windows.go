package launch

import (
	"os"

	"golang.org/x/sys/windows"
)

var attachConsole = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// AttachParentConsole lets the window app, a GUI-subsystem program on
// Windows, print a subcommand's output in the console it was typed in
// (scripts that call osfoundry-desktop.exe with a subcommand keep working).
// Output already redirected to a file or pipe is left where it goes.
func AttachParentConsole() {
	out, _ := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE)
	if out != 0 && out != windows.InvalidHandle {
		return
	}
	const attachParentProcess = ^uintptr(0) // (DWORD)-1
	if r, _, _ := attachConsole.Call(attachParentProcess); r == 0 {
		return // started from Explorer: there is no console to attach to
	}
	if f, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
		os.Stdout, os.Stderr = f, f
	}
	if f, err := os.Open("CONIN$"); err == nil {
		os.Stdin = f
	}
}
