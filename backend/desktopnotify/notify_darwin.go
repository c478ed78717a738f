package desktopnotify

import (
	"fmt"
	"os/exec"
	"strconv"
)

// macNotifier shows notifications through the UserNotifications framework
// when the app runs as a bundle, so a click comes back to the app (see
// notify_objc_darwin.go). Without a bundle that framework aborts the
// process, so a bare binary (`go run`, `wails dev`) falls back to
// osascript, whose notifications report no clicks: the rail and Mod+.
// still lead to the pane there.
type macNotifier struct {
	n      *Notifier
	center *unCenter // nil: osascript
	gate   *authGate
	ids    *idSource
}

// newPlatform runs from New, before the window starts: Apple delivers the
// click that launched the app only to a delegate set by then.
func newPlatform(n *Notifier) platform {
	m := &macNotifier{n: n, ids: newIDSource()}
	c, err := openCenter(n)
	if err != nil {
		// Not a bundle, or the frameworks did not load: osascript still
		// shows the notification, only the click is lost.
		return m
	}
	m.center = c
	m.gate = newAuthGate(n.app, c.requestAuthorization, m.post)
	return m
}

func (m *macNotifier) show(msg Message) error {
	if m.center == nil {
		return showScript(msg)
	}
	if err := m.gate.check(msg); err != nil {
		return err
	}
	return m.post(msg)
}

func (m *macNotifier) post(msg Message) error {
	if err := m.center.post(msg, m.ids.next()); err != nil {
		m.gate.reset()
		return fmt.Errorf("showing a macOS notification: %w", err)
	}
	return nil
}

// close stops clicks reaching this notifier. The delegate stays set: the
// notification center keeps it for the life of the process.
func (m *macNotifier) close() {
	if m.center != nil {
		clickTarget.CompareAndSwap(m.n, nil)
	}
}

// showScript is the fallback without a bundle. osascript gets the script
// as one argv element (no shell) and the values as AppleScript string
// literals: strconv.Quote escapes quotes and backslashes.
func showScript(m Message) error {
	script := "display notification " + strconv.Quote(m.Body) + " with title " + strconv.Quote(m.Title)
	if out, err := exec.Command("osascript", "-e", script).CombinedOutput(); err != nil {
		return fmt.Errorf("showing a notification with osascript: %w (%s)", err, out)
	}
	return nil
}
