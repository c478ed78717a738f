package desktopnotify

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func TestUseNativeNotifications(t *testing.T) {
	for _, tc := range []struct {
		id, path string
		want     bool
	}{
		{"com.osfoundry.desktop", "/Applications/osFoundry.app", true},
		{"com.osfoundry.desktop", "/Applications/osFoundry.app/", true},
		{"com.osfoundry.desktop", "/Users/me/build/bin/OSFOUNDRY.APP", true},
		{"", "/Applications/osFoundry.app", false},           // no identifier: UN would abort
		{"  ", "/Applications/osFoundry.app", false},         // blank is none
		{"com.osfoundry.desktop", "/Users/me/go/bin", false}, // `go run`, wails dev: the binary's folder
		{"com.osfoundry.desktop", "/tmp/app.application", false},
		{"com.osfoundry.desktop", ".app", false}, // no bundle name
		{"com.osfoundry.desktop", "", false},
	} {
		if got := useNativeNotifications(tc.id, tc.path); got != tc.want {
			t.Errorf("useNativeNotifications(%q, %q) = %v, want %v", tc.id, tc.path, got, tc.want)
		}
	}
}

func TestCocoaString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Needs you · shop-api", "Needs you · shop-api"},
		{"a\x00b\x00", "ab"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"", ""},
	} {
		got := cocoaString(tc.in)
		if got != tc.want {
			t.Errorf("cocoaString(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, "\x00") || !utf8.ValidString(got) {
			t.Errorf("cocoaString(%q) = %q is not a valid C string for stringWithUTF8String:", tc.in, got)
		}
	}
}

func TestIsClickAction(t *testing.T) {
	if !isClickAction("com.apple.UNNotificationDefaultActionIdentifier") {
		t.Error("a click on the notification is not a click")
	}
	if isClickAction("com.apple.UNNotificationDismissActionIdentifier") || isClickAction("") {
		t.Error("dismissing a notification counts as a click")
	}
}

func TestIDSourceUnique(t *testing.T) {
	a, b := newIDSource(), newIDSource()
	if a.prefix == b.prefix {
		t.Fatalf("two processes would share the prefix %q", a.prefix)
	}
	seen := map[string]bool{b.next(): true}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				id := a.next()
				mu.Lock()
				if seen[id] {
					t.Errorf("identifier %q handed out twice", id)
				}
				seen[id] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// fakeAuth stands in for requestAuthorizationWithOptions:completionHandler:.
type fakeAuth struct {
	mu      sync.Mutex
	asks    int
	answers []func(bool, error) // pending completion handlers
	reply   *bool               // answer synchronously with this, if set
	posted  chan Message
}

func (f *fakeAuth) request(answer func(bool, error)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asks++
	if f.reply != nil {
		answer(*f.reply, nil)
		return
	}
	f.answers = append(f.answers, answer)
}

func (f *fakeAuth) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asks
}

func newFakeGate(f *fakeAuth) *authGate {
	f.posted = make(chan Message, 4)
	g := newAuthGate("osFoundry", f.request, func(m Message) error { f.posted <- m; return nil })
	g.wait = 20 * time.Millisecond
	return g
}

func ptr(b bool) *bool { return &b }

func TestAuthGateAsksOnceWhenGranted(t *testing.T) {
	f := &fakeAuth{reply: ptr(true)}
	g := newFakeGate(f)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.check(Message{Key: "p"}); err != nil && !errors.Is(err, errAwaitingPermission) {
				t.Errorf("check: %v", err)
			}
		}()
	}
	wg.Wait()
	if err := g.check(Message{Key: "p"}); err != nil {
		t.Fatalf("check after permission: %v", err)
	}
	if n := f.count(); n != 1 {
		t.Fatalf("asked macOS %d times, want once", n)
	}
}

func TestAuthGateDeniedSaysWhereToTurnOn(t *testing.T) {
	f := &fakeAuth{reply: ptr(false)}
	g := newFakeGate(f)
	err := g.check(Message{Key: "p"})
	if err == nil || !strings.Contains(err.Error(), "macOS notifications are off for osFoundry: turn them on in System Settings → Notifications") {
		t.Fatalf("err = %v, want the System Settings hint", err)
	}
	// Turned on in System Settings since: the next show asks again and posts.
	f.mu.Lock()
	f.reply = ptr(true)
	f.mu.Unlock()
	if err := g.check(Message{Key: "p"}); err != nil {
		t.Fatalf("check after turning them on: %v", err)
	}
	if n := f.count(); n != 2 {
		t.Fatalf("asked %d times, want 2 (once more after the no)", n)
	}
}

func TestAuthGateHoldsNewestMessageWhilePromptIsOpen(t *testing.T) {
	f := &fakeAuth{}
	g := newFakeGate(f)
	for _, key := range []string{"p-1", "p-2"} {
		if err := g.check(Message{Key: key}); !errors.Is(err, errAwaitingPermission) {
			t.Fatalf("check(%s) while the prompt is open = %v, want errAwaitingPermission", key, err)
		}
	}
	if n := f.count(); n != 1 {
		t.Fatalf("asked %d times while the prompt was open, want once", n)
	}
	f.answers[0](true, nil) // the user clicks Allow
	select {
	case m := <-f.posted:
		if m.Key != "p-2" {
			t.Fatalf("posted %q, want the newest held message p-2", m.Key)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the held message was not posted after permission arrived")
	}
	f.answers[0](true, nil) // a second reply changes nothing and must not panic
	if err := g.check(Message{Key: "p-3"}); err != nil {
		t.Fatalf("check after Allow: %v", err)
	}
}

func TestAuthGateDropsStaleHeldMessage(t *testing.T) {
	f := &fakeAuth{}
	g := newFakeGate(f)
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	g.now = func() time.Time { return clock }
	if err := g.check(Message{Key: "p-1"}); !errors.Is(err, errAwaitingPermission) {
		t.Fatalf("err = %v", err)
	}
	clock = clock.Add(g.fresh + time.Second) // the user answers much later
	f.answers[0](true, nil)
	select {
	case m := <-f.posted:
		t.Fatalf("a stale notification %q was posted", m.Key)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestAuthGateResetAsksAgain(t *testing.T) {
	f := &fakeAuth{reply: ptr(true)}
	g := newFakeGate(f)
	if err := g.check(Message{}); err != nil {
		t.Fatal(err)
	}
	g.reset() // posting failed: notifications may have been turned off
	if err := g.check(Message{}); err != nil {
		t.Fatal(err)
	}
	if n := f.count(); n != 2 {
		t.Fatalf("asked %d times, want 2 after a failed post", n)
	}
}
