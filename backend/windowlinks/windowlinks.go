// Package windowlinks shows the window's desktop notifications and routes
// what comes back from them to the window: a clicked notification, or an
// osfoundry:// link that a later launch (Windows) or an Apple Event (macOS)
// hands over, raises the window on its pane, chat or run. Links this
// window did not make open nothing and say so in a notice. It never
// touches the Wails runtime: the window is the small Window interface.
package windowlinks

import (
	"errors"
	"fmt"
	"io"

	"github.com/osfoundry/desktop/backend/desktopnotify"
	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/instance"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/runnotify"
)

// EventNotice carries a Notice over any screen (the frontend's
// 'app:notice' in src/lib/events.ts).
const EventNotice = "app:notice"

// EventOpen carries a window route to show, e.g. "/chat?chat=<id>" (a
// clicked notification of a chat or run; 'app:open' in src/lib/events.ts).
const EventOpen = "app:open"

// Notice is a message shown over any screen, e.g. why a link opened nothing.
type Notice struct {
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Window is the running window (wailsui.Emitter).
type Window interface {
	Raise()
	Emit(event string, payload any)
}

// Links makes and reads this window's osfoundry:// links
// (instance.Instance): only links it made open anything.
type Links interface {
	Link(kind, id string) string
	Open(raw string) (kind, id string, err error)
}

// Options are what the router routes to.
type Options struct {
	Window Window
	Links  Links
	// HasPane reports whether a pane is open: a notification of a pane
	// closed since still raises the window, on no pane.
	HasPane func(id string) bool
	// Log gets the errors nobody waits for (a notification that could not
	// be shown, a damaged link); nil discards them.
	Log io.Writer
}

// Router shows desktop notifications and opens what they name.
type Router struct {
	opts     Options
	notifier *desktopnotify.Notifier
}

// New builds the router and its desktop notifier. A notification's link
// (Windows) is asked of Links when it is shown, not now.
func New(opts Options) *Router {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	r := &Router{opts: opts}
	r.notifier = desktopnotify.New("osFoundry", r.clicked)
	r.notifier.SetLink(func(key string) string {
		if kind, id, ok := runnotify.LinkOf(key); ok {
			return r.opts.Links.Link(kind, id)
		}
		return r.opts.Links.Link("pane", key)
	})
	return r
}

// SetEnabled follows the Settings switch for desktop notifications.
func (r *Router) SetEnabled(on bool) { r.notifier.SetEnabled(on) }

// Close ends the platform's notification connection.
func (r *Router) Close() { r.notifier.Close() }

// Show displays a "Needs you" notification of a pane, chat or run off the
// caller's path: a toast runs PowerShell (~0.5 s), macOS may ask for
// permission first, and a stuck notification daemon must not hold up the
// next pane's evaluation or a run's approval request.
func (r *Router) Show(n detect.Notification) {
	r.show(desktopnotify.Message{Title: n.Title, Body: n.Body, Key: n.Session})
}

// ShowPost tells the person an assistant posted in a Message channel (the
// messages binding keeps the per-channel cooldown); off the poster's path
// like every notification.
func (r *Router) ShowPost(title, body, channel string) {
	r.show(desktopnotify.Message{Title: title, Body: body, Key: "channel:" + channel})
}

func (r *Router) show(m desktopnotify.Message) {
	go func() {
		if err := r.notifier.Show(m); err != nil {
			fmt.Fprintln(r.opts.Log, "osfoundry:", err)
		}
	}()
}

// clicked opens what a clicked desktop notification names: a chat or run
// (runnotify keys), else a pane.
func (r *Router) clicked(key string) {
	if route, ok := runnotify.Route(key); ok {
		r.opts.Window.Raise()
		r.opts.Window.Emit(EventOpen, route)
		return
	}
	r.focusPane(key)
}

// focusPane raises the window on a pane (a desktop notification was
// clicked).
func (r *Router) focusPane(pane string) {
	r.opts.Window.Raise()
	if r.opts.HasPane(pane) {
		r.opts.Window.Emit(panestate.EventFocus, pane)
	}
}

// Launched handles a later launch of the app: the window comes to the
// front, and an osfoundry:// link this window made (a clicked Windows
// notification) opens its pane, chat or run. Links from elsewhere open
// nothing.
func (r *Router) Launched(l instance.Launch) {
	r.opts.Window.Raise()
	for _, arg := range l.Args {
		kind, id, err := r.opts.Links.Open(arg)
		switch {
		case err == nil && kind == "pane":
			r.focusPane(id)
		case err == nil:
			if route, ok := runnotify.RouteOfLink(kind, id); ok {
				r.opts.Window.Emit(EventOpen, route)
			}
		case err != nil && !errors.Is(err, instance.ErrNotLink):
			fmt.Fprintln(r.opts.Log, "osfoundry:", err)
			r.opts.Window.Emit(EventNotice, linkNotice(err))
		}
	}
}

// OpenURL handles a link macOS hands to the running app as an Apple
// Event rather than as an argument of a second process.
func (r *Router) OpenURL(u string) { r.Launched(instance.Launch{Args: []string{u}}) }

// linkNotice says why an osfoundry:// link the OS handed over opened
// nothing: a web page or another program can start the app with one.
func linkNotice(err error) Notice {
	text := "This osfoundry:// link is damaged (expected osfoundry://pane/<id>?t=<token>), so it opens nothing."
	if errors.Is(err, instance.ErrStaleLink) {
		text = "This osfoundry:// link was made by an earlier run of osFoundry, or not by osFoundry, so it opens nothing. Notifications from now on open their pane."
	}
	return Notice{Title: "Link not opened", Text: text}
}
