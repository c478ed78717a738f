// Package desktopnotify shows real OS notifications: on Linux through the
// freedesktop D-Bus service (org.freedesktop.Notifications) with a default
// action, so clicking the notification reaches the app; on macOS through
// native UserNotifications; on Windows as a toast (through PowerShell's
// WinRT bridge) whose click opens an osfoundry:// link the app hands to its
// running window.
package desktopnotify

import "sync/atomic"

// Message is one notification. Key comes back to OnAction when the user
// clicks it (a pane id, for instance).
type Message struct {
	Title string
	Body  string
	Key   string
}

// Notifier shows notifications. Safe for concurrent use.
type Notifier struct {
	app      string
	onAction func(key string)
	link     atomic.Pointer[func(key string) string]
	plat     platform
	off      atomic.Bool // the person turned notifications off in Settings
}

// platform is the OS-specific part.
type platform interface {
	show(m Message) error
	close()
}

// New returns a notifier naming itself app. onAction (may be nil) is called
// with a message's Key when the user clicks it, where the OS reports clicks.
func New(app string, onAction func(key string)) *Notifier {
	n := &Notifier{app: app, onAction: onAction}
	n.plat = newPlatform(n)
	return n
}

// Show displays m, unless notifications are turned off (then it shows
// nothing and returns nil). A desktop without a notification service
// returns an error; callers log it and carry on (the rail still shows the
// state).
func (n *Notifier) Show(m Message) error {
	if n.off.Load() {
		return nil
	}
	return n.plat.show(m)
}

// SetEnabled turns notifications on or off (Settings → Notifications).
// A new Notifier is on.
func (n *Notifier) SetEnabled(on bool) { n.off.Store(!on) }

// Enabled reports whether Show reaches the desktop.
func (n *Notifier) Enabled() bool { return !n.off.Load() }

// Close releases the connection to the notification service.
func (n *Notifier) Close() { n.plat.close() }

// SetLink tells the notifier how to turn a message's Key into a link the OS
// opens when the notification is clicked, where clicks come back as links
// (Windows toasts) rather than as events (Linux D-Bus, macOS).
func (n *Notifier) SetLink(link func(key string) string) { n.link.Store(&link) }

// linkFor is the click link of key, or "" when no link maker is set.
func (n *Notifier) linkFor(key string) string {
	if f := n.link.Load(); f != nil && key != "" {
		return (*f)(key)
	}
	return ""
}

func (n *Notifier) clicked(key string) {
	if n.onAction != nil && key != "" {
		n.onAction(key)
	}
}
