package desktopnotify

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"

	"golang.org/x/sys/windows/registry"
)

// appID is the AppUserModelID toasts are sent under. Windows accepts a
// toast from an unregistered id and then drops it, so register() records
// the id (with its display name) under HKCU before the first toast.
const appID = "osFoundry.Desktop"

// toastScript shows the toast in $env:OSF_TOAST_XML under $env:OSF_TOAST_APP.
// Values travel in the environment, never inside the script text, so no
// title or prompt can change what PowerShell runs.
const toastScript = `$ErrorActionPreference = 'Stop'
[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null
[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] > $null
$x = New-Object Windows.Data.Xml.Dom.XmlDocument
$x.LoadXml($env:OSF_TOAST_XML)
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($env:OSF_TOAST_APP).Show([Windows.UI.Notifications.ToastNotification]::new($x))`

// createNoWindow keeps PowerShell's console from flashing up.
const createNoWindow = 0x08000000

// winNotifier shows toasts through Windows PowerShell's WinRT bridge. A
// click opens the toast's osfoundry:// link: Windows starts this program
// with the link, and the new process hands it to the running window.
type winNotifier struct {
	n    *Notifier
	once sync.Once
	reg  error
}

func newPlatform(n *Notifier) platform { return &winNotifier{n: n} }

func (w *winNotifier) show(m Message) error {
	w.once.Do(func() { w.reg = register() })
	if w.reg != nil {
		return w.reg
	}
	cmd := exec.Command("powershell", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", toastScript)
	cmd.Env = append(os.Environ(), "OSF_TOAST_XML="+toastXML(m, w.n.linkFor(m.Key)), "OSF_TOAST_APP="+appID)
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("showing a notification with PowerShell: %w (%s)", err, out)
	}
	return nil
}

func (w *winNotifier) close() {}

// register records, for the current user only, the toast identity and the
// osfoundry:// link handler (this executable, the link as its one
// argument). It runs at every start, so the handler follows the copy of the
// app the user runs now.
func register() error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program to register notification clicks: %w", err)
	}
	values := []struct{ key, name, value string }{
		{`Software\Classes\AppUserModelId\` + appID, "DisplayName", "osFoundry"},
		{`Software\Classes\osfoundry`, "", "URL:osFoundry link"},
		{`Software\Classes\osfoundry`, "URL Protocol", ""},
		{`Software\Classes\osfoundry\shell\open\command`, "", `"` + exe + `" "%1"`},
	}
	for _, v := range values {
		k, _, err := registry.CreateKey(registry.CURRENT_USER, v.key, registry.SET_VALUE)
		if err != nil {
			return fmt.Errorf("registering notifications (HKCU\\%s): %w", v.key, err)
		}
		err = k.SetStringValue(v.name, v.value)
		k.Close()
		if err != nil {
			return fmt.Errorf("registering notifications (HKCU\\%s %s): %w", v.key, v.name, err)
		}
	}
	return nil
}
