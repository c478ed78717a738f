package desktopnotify

import (
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// fakeService is a minimal org.freedesktop.Notifications on a private bus.
type fakeService struct {
	calls chan []any
}

func (f *fakeService) Notify(app string, replaces uint32, icon, summary, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	f.calls <- []any{app, summary, body, actions}
	return 7, nil
}

// privateBus starts a dbus-daemon of its own (never the desktop's bus).
func privateBus(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon not installed")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "bus")
	cmd := exec.Command(bin, "--session", "--nofork", "--address=unix:path="+sock)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// The socket file appears when it is bound, before the daemon listens:
	// wait until it takes a connection.
	for i := 0; i < 250; i++ {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "unix:path=" + sock
}

func TestLinuxNotifyAndClick(t *testing.T) {
	addr := privateBus(t)
	svcConn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer svcConn.Close()
	fake := &fakeService{calls: make(chan []any, 4)}
	if err := svcConn.Export(fake, fdoPath, fdoIface); err != nil {
		t.Fatal(err)
	}
	if reply, err := svcConn.RequestName(fdoName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning the service name: %v %v", reply, err)
	}

	clicked := make(chan string, 1)
	n := New("osFoundry", func(key string) { clicked <- key })
	n.plat.(*dbusNotifier).connect = func() (*dbus.Conn, error) { return dbus.Connect(addr) }
	defer n.Close()
	if err := n.Show(Message{Title: "Needs you · shop-api", Body: "Claude needs your permission to use Bash", Key: "p-1"}); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-fake.calls:
		if c[0] != "osFoundry" || c[1] != "Needs you · shop-api" || !strings.Contains(c[2].(string), "Bash") {
			t.Fatalf("Notify got %v", c)
		}
		if acts := c[3].([]string); len(acts) < 2 || acts[0] != "default" {
			t.Fatalf("actions = %v, want a default action", acts)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the notification service got no Notify call")
	}

	// A click on another program's notification (id 8) is not ours.
	for _, id := range []uint32{8, 7} {
		if err := svcConn.Emit(fdoPath, fdoIface+".ActionInvoked", id, "default"); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case key := <-clicked:
		if key != "p-1" {
			t.Fatalf("clicked key = %q, want p-1", key)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ActionInvoked did not reach the app")
	}
	select {
	case key := <-clicked:
		t.Fatalf("a second click %q was reported", key)
	case <-time.After(200 * time.Millisecond):
	}
}

func TestLinuxNoSessionBusNeverAutolaunches(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	err := New("osFoundry", nil).Show(Message{Title: "x"})
	if err == nil || !strings.Contains(err.Error(), "no session bus") {
		t.Fatalf("err = %v, want no session bus", err)
	}
}

func TestLinuxNoBusIsAClearError(t *testing.T) {
	n := New("osFoundry", nil)
	n.plat.(*dbusNotifier).connect = func() (*dbus.Conn, error) { return dbus.Connect("unix:path=/nonexistent/bus") }
	err := n.Show(Message{Title: "x"})
	if err == nil || !strings.Contains(err.Error(), "session bus") {
		t.Fatalf("err = %v, want a session bus error", err)
	}
}
