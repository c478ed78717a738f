package msgbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

const (
	mbOK        = 0x0
	mbIconError = 0x10
	mbTopmost   = 0x40000
)

var messageBox = windows.NewLazySystemDLL("user32.dll").NewProc("MessageBoxW")

func show(title, text string) error {
	t, err := windows.UTF16PtrFromString(title)
	if err != nil {
		return err
	}
	m, err := windows.UTF16PtrFromString(text)
	if err != nil {
		return err
	}
	if r, _, err := messageBox.Call(0, uintptr(unsafe.Pointer(m)), uintptr(unsafe.Pointer(t)), mbOK|mbIconError|mbTopmost); r == 0 {
		return fmt.Errorf("MessageBoxW: %w", err)
	}
	return nil
}
