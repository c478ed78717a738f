package applog

import (
	"os"

	"golang.org/x/sys/windows"
)

// takeOver makes f the process's standard output and error handles (a
// GUI-subsystem program has none) and Go's os.Stdout and os.Stderr.
func takeOver(f *os.File) error {
	h := windows.Handle(f.Fd())
	if err := windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, h); err != nil {
		return err
	}
	if err := windows.SetStdHandle(windows.STD_ERROR_HANDLE, h); err != nil {
		return err
	}
	os.Stdout, os.Stderr = f, f
	return nil
}
