package desktopnotify

// UNUserNotificationCenter driven from Go through purego's Objective-C
// runtime bindings: no cgo, so this file type-checks from any machine
// (GOOS=darwin CGO_ENABLED=0) and works in the cgo-built app alike.

import (
	"errors"
	"fmt"
	"runtime"
	"structs"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/ebitengine/purego/objc"
)

const (
	foundationPath        = "/System/Library/Frameworks/Foundation.framework/Foundation"
	userNotificationsPath = "/System/Library/Frameworks/UserNotifications.framework/UserNotifications"

	// UNAuthorizationOptionSound | UNAuthorizationOptionAlert.
	authOptions uint = 1<<1 | 1<<2
	// UNNotificationPresentationOptionBanner | List | Sound, so a
	// notification shows while the app is in front too. Alert (1<<2) is
	// the pre-macOS 11 spelling of Banner|List; older systems need it and
	// newer ones treat it the same.
	presentOptions uint = 1<<4 | 1<<3 | 1<<2 | 1<<1

	// addWait bounds how long show waits for macOS to accept a request;
	// the reply normally comes within milliseconds.
	addWait = 2 * time.Second
)

// clickTarget is the notifier a click goes to. The delegate is one per
// process (an Objective-C class can be registered once), so the newest
// notifier wins.
var clickTarget atomic.Pointer[Notifier]

// The selectors and classes used, looked up once (sel_registerName takes
// the runtime's global lock).
var (
	loadOnce sync.Once
	loadErr  error
	sel      struct {
		alloc, init, new, release, drain, isKindOfClass                          objc.SEL
		stringWithUTF8String, utf8String, localizedDescription                   objc.SEL
		mainBundle, bundleIdentifier, bundlePath                                 objc.SEL
		currentNotificationCenter, setDelegate, requestAuthorization, addRequest objc.SEL
		setTitle, setBody, setSound, setUserInfo, defaultSound                   objc.SEL
		dictionaryWithObjectForKey, objectForKey, requestWithIdentifier          objc.SEL
		notification, request, content, userInfo, actionIdentifier               objc.SEL
	}
	cls struct {
		NSObject, NSString, NSBundle, NSDictionary, NSAutoreleasePool               objc.ID
		UNUserNotificationCenter, UNMutableNotificationContent, UNNotificationSound objc.ID
		UNNotificationRequest                                                       objc.ID
	}

	delegateOnce sync.Once
	delegateErr  error
	// delegate is never released: the notification center holds its
	// delegate weakly, so this reference is what keeps it alive.
	delegate objc.ID
)

// unCenter is the process's UNUserNotificationCenter.
type unCenter struct{ id objc.ID }

// load opens the frameworks and resolves what this file uses.
func load() error {
	loadOnce.Do(func() {
		for _, p := range []string{foundationPath, userNotificationsPath} {
			if _, err := purego.Dlopen(p, purego.RTLD_GLOBAL|purego.RTLD_NOW); err != nil {
				loadErr = fmt.Errorf("loading %s: %w", p, err)
				return
			}
		}
		s := &sel
		for p, name := range map[*objc.SEL]string{
			&s.alloc: "alloc", &s.init: "init", &s.new: "new", &s.release: "release", &s.drain: "drain",
			&s.isKindOfClass: "isKindOfClass:", &s.stringWithUTF8String: "stringWithUTF8String:",
			&s.utf8String: "UTF8String", &s.localizedDescription: "localizedDescription",
			&s.mainBundle: "mainBundle", &s.bundleIdentifier: "bundleIdentifier", &s.bundlePath: "bundlePath",
			&s.currentNotificationCenter: "currentNotificationCenter", &s.setDelegate: "setDelegate:",
			&s.requestAuthorization: "requestAuthorizationWithOptions:completionHandler:",
			&s.addRequest:           "addNotificationRequest:withCompletionHandler:",
			&s.setTitle:             "setTitle:", &s.setBody: "setBody:", &s.setSound: "setSound:",
			&s.setUserInfo: "setUserInfo:", &s.defaultSound: "defaultSound",
			&s.dictionaryWithObjectForKey: "dictionaryWithObject:forKey:", &s.objectForKey: "objectForKey:",
			&s.requestWithIdentifier: "requestWithIdentifier:content:trigger:",
			&s.notification:          "notification", &s.request: "request", &s.content: "content",
			&s.userInfo: "userInfo", &s.actionIdentifier: "actionIdentifier",
		} {
			*p = objc.RegisterName(name)
		}
		c := &cls
		for p, name := range map[*objc.ID]string{
			&c.NSObject: "NSObject", &c.NSString: "NSString", &c.NSBundle: "NSBundle",
			&c.NSDictionary: "NSDictionary", &c.NSAutoreleasePool: "NSAutoreleasePool",
			&c.UNUserNotificationCenter:     "UNUserNotificationCenter",
			&c.UNMutableNotificationContent: "UNMutableNotificationContent",
			&c.UNNotificationSound:          "UNNotificationSound", &c.UNNotificationRequest: "UNNotificationRequest",
		} {
			if *p = objc.ID(objc.GetClass(name)); *p == 0 {
				loadErr = fmt.Errorf("the Objective-C class %s is missing", name)
				return
			}
		}
	})
	return loadErr
}

// openCenter returns the notification center with this package's delegate
// set, or an error when the process must not use it (see
// useNativeNotifications) or the frameworks are missing.
func openCenter(n *Notifier) (*unCenter, error) {
	if err := load(); err != nil {
		return nil, err
	}
	var c *unCenter
	var err error
	withPool(func() {
		bundle := cls.NSBundle.Send(sel.mainBundle)
		if !useNativeNotifications(goString(bundle.Send(sel.bundleIdentifier)), goString(bundle.Send(sel.bundlePath))) {
			err = errors.New("not running as an app bundle")
			return
		}
		center := cls.UNUserNotificationCenter.Send(sel.currentNotificationCenter)
		if center == 0 {
			err = errors.New("no notification center")
			return
		}
		if err = setDelegate(center); err == nil {
			c = &unCenter{id: center}
		}
	})
	if err != nil {
		return nil, err
	}
	clickTarget.Store(n)
	return c, nil
}

// setDelegate registers the delegate class (once per process) and makes an
// instance of it the center's delegate.
func setDelegate(center objc.ID) error {
	delegateOnce.Do(func() {
		var protocols []*objc.Protocol
		if p := objc.GetProtocol("UNUserNotificationCenterDelegate"); p != nil {
			protocols = append(protocols, p)
		}
		// RegisterClass derives each method's type encoding from the Go
		// func type: (ID, SEL, ID, ID, Block) → "v@:@@@", which is what
		// the protocol declares (the block is an object).
		class, err := objc.RegisterClass("OSFoundryNotificationDelegate", objc.Class(cls.NSObject), protocols, nil,
			[]objc.MethodDef{
				{Cmd: objc.RegisterName("userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"), Fn: didReceive},
				{Cmd: objc.RegisterName("userNotificationCenter:willPresentNotification:withCompletionHandler:"), Fn: willPresent},
			})
		if err != nil {
			delegateErr = fmt.Errorf("registering the notification delegate: %w", err)
			return
		}
		delegate = objc.ID(class).Send(sel.alloc).Send(sel.init)
	})
	if delegateErr != nil {
		return delegateErr
	}
	center.Send(sel.setDelegate, delegate)
	return nil
}

// didReceive runs on a macOS background queue when the user responds to a
// notification. It reads the key, lets macOS go on (the completion handler
// must be called), and hands the key to the app on a goroutine of its own
// so app code never blocks the queue.
func didReceive(_ objc.ID, _ objc.SEL, _ objc.ID, response objc.ID, done objc.Block) {
	var key, action string
	withPool(func() {
		action = goString(response.Send(sel.actionIdentifier))
		info := response.Send(sel.notification).Send(sel.request).Send(sel.content).Send(sel.userInfo)
		key = goString(info.Send(sel.objectForKey, nsString("key")))
	})
	callForeignBlock(done)
	if n := clickTarget.Load(); n != nil && isClickAction(action) {
		go n.clicked(key)
	}
}

// willPresent runs when a notification arrives while the app is in front;
// without it macOS would not show it at all.
func willPresent(_ objc.ID, _ objc.SEL, _ objc.ID, _ objc.ID, done objc.Block) {
	callForeignBlock(done, uintptr(presentOptions))
}

// blockHeader is the start of every block (clang's Block_literal_1): isa,
// flags, reserved, then the function to call with the block as its first
// argument.
type blockHeader struct {
	_        structs.HostLayout
	isa      uintptr
	flags    int32
	reserved int32
	invoke   uintptr
}

// callForeignBlock calls a block made by macOS (a completion handler).
// objc.Block.Invoke only works for blocks made with objc.NewBlock (it looks
// the Go func up in purego's table), so this calls the block's own
// function pointer, as compiled Objective-C does.
func callForeignBlock(b objc.Block, args ...uintptr) {
	if b == 0 {
		return
	}
	// Read the pointer through its address so go vet sees no uintptr →
	// unsafe.Pointer conversion; the block is alive for this call.
	h := (*blockHeader)(*(*unsafe.Pointer)(unsafe.Pointer(&b)))
	purego.SyscallN(h.invoke, append([]uintptr{uintptr(b)}, args...)...)
}

// requestAuthorization asks macOS for permission; the first time it shows
// the prompt. answer runs on a macOS queue when the user has replied.
func (c *unCenter) requestAuthorization(answer func(granted bool, err error)) {
	withPool(func() {
		blk := objc.NewBlock(func(_ objc.Block, granted bool, nserr objc.ID) {
			answer(granted, goError(nserr))
		})
		c.id.Send(sel.requestAuthorization, authOptions, blk)
		// The center copied the block; drop this reference.
		blk.Release()
	})
}

// post adds a notification request that is delivered at once (nil
// trigger), with the key in userInfo for didReceive.
func (c *unCenter) post(m Message, id string) error {
	added := make(chan error, 1) // buffered: a late reply must not block macOS's queue
	withPool(func() {
		content := cls.UNMutableNotificationContent.Send(sel.alloc).Send(sel.init)
		defer content.Send(sel.release)
		content.Send(sel.setTitle, nsString(m.Title))
		content.Send(sel.setBody, nsString(m.Body))
		content.Send(sel.setSound, cls.UNNotificationSound.Send(sel.defaultSound))
		content.Send(sel.setUserInfo, cls.NSDictionary.Send(sel.dictionaryWithObjectForKey, nsString(m.Key), nsString("key")))
		req := cls.UNNotificationRequest.Send(sel.requestWithIdentifier, nsString(id), content, objc.ID(0))
		blk := objc.NewBlock(func(_ objc.Block, nserr objc.ID) { added <- goError(nserr) })
		c.id.Send(sel.addRequest, req, blk)
		blk.Release()
	})
	t := time.NewTimer(addWait)
	defer t.Stop()
	select {
	case err := <-added:
		return err
	case <-t.C:
		return nil // no reply yet: most likely shown; don't hold the caller
	}
}

// withPool runs f inside an autorelease pool: the factory methods used here
// return autoreleased objects, and a goroutine's thread has no pool of its
// own, so they would leak. A pool belongs to a thread, hence the lock.
func withPool(f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := cls.NSAutoreleasePool.Send(sel.new)
	defer pool.Send(sel.drain)
	f()
}

// nsString returns an autoreleased NSString for s (see cocoaString), never
// nil: a nil title would raise an exception in a setter.
func nsString(s string) objc.ID {
	str := cls.NSString.Send(sel.stringWithUTF8String, cocoaString(s))
	if str == 0 {
		str = cls.NSString.Send(sel.stringWithUTF8String, "")
	}
	return str
}

// goString copies an NSString into Go; nil or another kind of object (a
// userInfo value we did not write) reads as "" instead of raising.
func goString(obj objc.ID) string {
	if obj == 0 || !objc.Send[bool](obj, sel.isKindOfClass, cls.NSString) {
		return ""
	}
	// purego copies the C string and returns "" for a NULL pointer.
	return objc.Send[string](obj, sel.utf8String)
}

// goError turns an NSError into a Go error (nil for nil).
func goError(nserr objc.ID) error {
	if nserr == 0 {
		return nil
	}
	if msg := goString(nserr.Send(sel.localizedDescription)); msg != "" {
		return errors.New(msg)
	}
	return errors.New("macOS reported an unnamed error")
}
