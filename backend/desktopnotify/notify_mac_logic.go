package desktopnotify

// The decisions behind the macOS notifier, kept in plain Go (no purego, no
// build tags) so they are unit-tested on every platform; notify_darwin.go
// and notify_objc_darwin.go only move values between these functions and
// the Objective-C runtime.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// unDefaultAction is UNNotificationDefaultActionIdentifier: the user clicked
// the notification's body (as opposed to dismissing it or a custom button).
const unDefaultAction = "com.apple.UNNotificationDefaultActionIdentifier"

// useNativeNotifications reports whether UNUserNotificationCenter may be
// touched. It raises NSInternalInconsistencyException (and so kills the
// process) when the process is no app bundle: a bare binary from a shell,
// `go run`, `wails dev`. Both a bundle identifier and a ".app" bundle path
// are required, because a bare binary can still carry an identifier in an
// embedded Info.plist while its bundle path is the binary's folder.
func useNativeNotifications(bundleID, bundlePath string) bool {
	if strings.TrimSpace(bundleID) == "" {
		return false
	}
	p := strings.TrimRight(bundlePath, "/")
	// APFS and HFS+ are case-insensitive by default: "X.APP" is a bundle too.
	return len(p) > len(".app") && strings.EqualFold(p[len(p)-len(".app"):], ".app")
}

// cocoaString makes s safe for -[NSString stringWithUTF8String:]: the C
// string ends at the first NUL (silently cutting a title short) and invalid
// UTF-8 makes the call return nil, so NULs are dropped and bad bytes become
// U+FFFD.
func cocoaString(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// isClickAction reports whether a notification response is a click on the
// notification itself, the only response that should focus a pane.
func isClickAction(actionID string) bool { return actionID == unDefaultAction }

// idSource hands out notification request identifiers. macOS replaces a
// pending or delivered notification that has the same identifier, so each
// one must be unique within the app, also across restarts (delivered
// notifications outlive the process): a random per-process prefix plus a
// counter.
type idSource struct {
	prefix string
	n      atomic.Uint64
}

func newIDSource() *idSource {
	var b [6]byte
	rand.Read(b[:]) // never fails (Go ≥ 1.24 aborts the program instead)
	return &idSource{prefix: "osfoundry-" + hex.EncodeToString(b[:])}
}

func (s *idSource) next() string { return s.prefix + "-" + strconv.FormatUint(s.n.Add(1), 10) }

// errAwaitingPermission is returned while macOS's "allow notifications?"
// prompt is still open; the message is held and shown once it is allowed.
var errAwaitingPermission = errors.New("macOS is asking whether to allow notifications: answer the prompt (this notification appears once they are allowed)")

type authState int

const (
	authUnknown authState = iota
	authPending
	authGranted
	authDenied
)

// authGate asks macOS once for permission to notify and tells show whether
// it may post. The first request opens a prompt whose answer can take the
// user minutes, so show waits only briefly, then holds the newest message
// and posts it when permission arrives (if it is still recent). After a
// "no" every show asks again: macOS answers at once without a prompt, and
// that way a permission granted later in System Settings takes effect
// without a restart.
type authGate struct {
	app string
	// request sends the permission request; answer may be called on any
	// thread, before or after request returns, and must be called once.
	request func(answer func(granted bool, err error))
	// post delivers a held message once permission arrives.
	post  func(m Message) error
	now   func() time.Time
	wait  time.Duration // how long show waits for an answer
	fresh time.Duration // how old a held message may be when it is posted

	mu    sync.Mutex
	state authState
	done  chan struct{} // closed when the current request is answered
	err   error         // why the last answer was "no", if macOS said
	held  *Message
	since time.Time // when held was held
}

func newAuthGate(app string, request func(answer func(bool, error)), post func(Message) error) *authGate {
	// Once the user has decided, macOS answers within milliseconds; while
	// the prompt is open no wait is long enough. So the wait is short: show
	// runs on the caller's detection path.
	return &authGate{app: app, request: request, post: post, now: time.Now,
		wait: time.Second, fresh: time.Minute}
}

// check returns nil when m may be posted now, errAwaitingPermission when
// the prompt is still open (m is held), or a "turn them on" error.
func (g *authGate) check(m Message) error {
	g.mu.Lock()
	if g.state == authGranted {
		g.mu.Unlock()
		return nil
	}
	if g.state != authPending {
		g.state = authPending
		g.done = make(chan struct{})
		done := g.done
		g.mu.Unlock()
		// Outside the lock: request may answer synchronously.
		g.request(func(granted bool, err error) { g.answer(done, granted, err) })
		g.mu.Lock()
	}
	done := g.done
	g.mu.Unlock()

	t := time.NewTimer(g.wait)
	select {
	case <-done:
	case <-t.C:
	}
	t.Stop()

	g.mu.Lock()
	defer g.mu.Unlock()
	switch g.state {
	case authGranted:
		return nil
	case authDenied:
		err := fmt.Errorf("macOS notifications are off for %s: turn them on in System Settings → Notifications", g.app)
		if g.err != nil {
			err = fmt.Errorf("%w (%v)", err, g.err)
		}
		return err
	default:
		held := m
		g.held, g.since = &held, g.now()
		return errAwaitingPermission
	}
}

// answer records macOS's reply to the request whose channel is done; a
// reply to an older request (after reset) is ignored.
func (g *authGate) answer(done chan struct{}, granted bool, err error) {
	g.mu.Lock()
	if g.done != done || g.state != authPending {
		g.mu.Unlock()
		return
	}
	g.state, g.err = authDenied, err
	if granted {
		g.state, g.err = authGranted, nil
	}
	held, since := g.held, g.since
	g.held = nil
	close(done)
	g.mu.Unlock()
	if granted && held != nil && g.now().Sub(since) <= g.fresh {
		// answer runs on a macOS callback queue: post off it. Nobody waits
		// for this message any more, so its error is only logged.
		go func() {
			if err := g.post(*held); err != nil {
				fmt.Fprintln(os.Stderr, "osfoundry:", err)
			}
		}()
	}
}

// reset makes the next check ask again, after posting failed (the user
// may have turned notifications off since they were granted).
func (g *authGate) reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.state != authPending {
		g.state = authUnknown
	}
}
