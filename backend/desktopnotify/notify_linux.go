package desktopnotify

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/godbus/dbus/v5"
)

const (
	fdoName  = "org.freedesktop.Notifications"
	fdoPath  = "/org/freedesktop/Notifications"
	fdoIface = "org.freedesktop.Notifications"
)

// dbusNotifier talks to the session bus's notification service. It
// connects lazily (the first notification) and reconnects after a failure.
type dbusNotifier struct {
	n *Notifier

	mu   sync.Mutex
	conn *dbus.Conn
	keys map[uint32]string // notification id → Message.Key
	// connect opens the bus; tests point it at a private bus.
	connect func() (*dbus.Conn, error)
}

func newPlatform(n *Notifier) platform {
	return &dbusNotifier{n: n, keys: map[uint32]string{}, connect: connectSession}
}

// connectSession opens the desktop's session bus. Without
// DBUS_SESSION_BUS_ADDRESS it uses the systemd user bus socket when there is
// one, and never autolaunches a bus daemon (godbus would start dbus-launch,
// leaving a stray daemon behind on a machine without a desktop).
func connectSession() (*dbus.Conn, error) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return dbus.ConnectSessionBus()
	}
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		sock := filepath.Join(rt, "bus")
		if _, err := os.Stat(sock); err == nil {
			return dbus.Connect("unix:path=" + sock)
		}
	}
	return nil, errors.New("no session bus (DBUS_SESSION_BUS_ADDRESS is not set): desktop notifications need a desktop session")
}

func (d *dbusNotifier) bus() (*dbus.Conn, error) {
	if d.conn != nil && d.conn.Connected() {
		return d.conn, nil
	}
	conn, err := d.connect()
	if err != nil {
		return nil, fmt.Errorf("connecting to the session bus for notifications: %w", err)
	}
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(fdoIface), dbus.WithMatchObjectPath(fdoPath)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("listening for notification clicks: %w", err)
	}
	ch := make(chan *dbus.Signal, 16)
	conn.Signal(ch)
	go d.listen(ch)
	d.conn = conn
	return conn, nil
}

// listen maps ActionInvoked back to the message's key. Signals carry the
// notification id; only ids this notifier created are honoured.
func (d *dbusNotifier) listen(ch <-chan *dbus.Signal) {
	for sig := range ch {
		if len(sig.Body) < 1 {
			continue
		}
		id, ok := sig.Body[0].(uint32)
		if !ok {
			continue
		}
		switch sig.Name {
		case fdoIface + ".ActionInvoked":
			d.mu.Lock()
			key := d.keys[id]
			d.mu.Unlock()
			d.n.clicked(key)
		case fdoIface + ".NotificationClosed":
			d.mu.Lock()
			delete(d.keys, id)
			d.mu.Unlock()
		}
	}
}

func (d *dbusNotifier) show(m Message) error {
	d.mu.Lock()
	conn, err := d.bus()
	d.mu.Unlock()
	if err != nil {
		return err
	}
	// "default" is the action of clicking the notification body itself.
	actions := []string{"default", "Show"}
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1)), "desktop-entry": dbus.MakeVariant("osfoundry")}
	var id uint32
	call := conn.Object(fdoName, fdoPath).Call(fdoIface+".Notify", 0,
		d.n.app, uint32(0), "", m.Title, m.Body, actions, hints, int32(-1))
	if err := call.Store(&id); err != nil {
		return fmt.Errorf("showing a desktop notification: %w", err)
	}
	d.mu.Lock()
	if len(d.keys) > 256 { // closed signals can be missed; bound the map
		d.keys = map[uint32]string{}
	}
	d.keys[id] = m.Key
	d.mu.Unlock()
	return nil
}

func (d *dbusNotifier) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil {
		d.conn.Close()
		d.conn = nil
	}
}
