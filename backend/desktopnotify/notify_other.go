//go:build !linux && !darwin

package desktopnotify

import (
	"fmt"
	"os/exec"
	"strings"
)

// winNotifier shows a toast through PowerShell's WinRT bridge, best
// effort: clicks are not reported back.
type winNotifier struct{}

func newPlatform(*Notifier) platform { return winNotifier{} }

func (winNotifier) show(m Message) error {
	esc := func(s string) string {
		r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "''")
		return r.Replace(s)
	}
	script := `[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null;` +
		`$x = New-Object Windows.Data.Xml.Dom.XmlDocument;` +
		`$x.LoadXml('<toast><visual><binding template="ToastGeneric"><text>` + esc(m.Title) + `</text><text>` + esc(m.Body) + `</text></binding></visual></toast>');` +
		`[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier('osFoundry').Show([Windows.UI.Notifications.ToastNotification]::new($x))`
	if out, err := exec.Command("powershell", "-NoProfile", "-NonInteractive", "-Command", script).CombinedOutput(); err != nil {
		return fmt.Errorf("showing a notification with PowerShell: %w (%s)", err, out)
	}
	return nil
}

func (winNotifier) close() {}
