// Package desktopnotify shows real OS notifications: on Linux through the
// freedesktop D-Bus service (org.freedesktop.Notifications) with a default
// action, so clicking the notification reaches the app; on macOS through
// osascript; on Windows as a best-effort toast through PowerShell.
package desktopnotify

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
	plat     platform
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

// Show displays m. A desktop without a notification service returns an
// error; callers log it and carry on (the rail still shows the state).
func (n *Notifier) Show(m Message) error { return n.plat.show(m) }

// Close releases the connection to the notification service.
func (n *Notifier) Close() { n.plat.close() }

func (n *Notifier) clicked(key string) {
	if n.onAction != nil && key != "" {
		n.onAction(key)
	}
}
