// Package instance keeps one running app per data folder. The first
// process to start holds a lock on the folder and listens on loopback;
// a later launch — the user starting the app again, or the OS opening an
// osfoundry:// link from a clicked notification — hands its arguments to
// the running window and exits, instead of opening a second window over
// the same database and panes.
//
// The running instance writes its address and a random secret to
// instance.json (owner-only, in the owner-only data folder); a launch
// must present the secret, compared in constant time, so nothing else on
// the machine can drive the window.
package instance

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/filelock"
)

// File names in the data folder.
const (
	lockName = "instance.lock"
	infoName = "instance.json"
)

// maxMessage bounds one launch's message (its arguments).
const maxMessage = 64 << 10

// ErrForwarded means another window is running for the folder and took the
// launch's arguments: the launching process should exit successfully.
var ErrForwarded = errors.New("osFoundry is already running for this data folder; its window was brought to the front")

// Launch is what a later launch hands to the running window.
type Launch struct {
	Args []string `json:"args"`
	Dir  string   `json:"dir"` // the launch's working folder
}

type message struct {
	Secret string `json:"secret"`
	Launch
}

type info struct {
	Addr   string `json:"addr"`
	Secret string `json:"secret"`
}

// Instance is the running app's claim on its data folder.
type Instance struct {
	lock   *os.File
	ln     net.Listener
	secret []byte
	info   string

	mu      sync.Mutex
	handle  func(Launch)
	pending []Launch // launches that arrived before Handle
	closed  bool
}

// Claim makes this process the app instance for dir, or hands launch to
// the instance already running there and returns ErrForwarded. An
// instance that holds the lock but does not answer within wait is an
// error saying what to do.
func Claim(dir string, launch Launch, wait time.Duration) (*Instance, error) {
	lock, err := filelock.TryLock(filepath.Join(dir, lockName))
	if err == nil {
		inst, err := listen(dir, lock)
		if err != nil {
			lock.Close()
			return nil, err
		}
		return inst, nil
	}
	if !errors.Is(err, filelock.ErrLocked) {
		return nil, fmt.Errorf("locking the data folder %s: %w", dir, err)
	}
	deadline := time.Now().Add(wait)
	for {
		err = forward(dir, launch)
		if err == nil {
			return nil, ErrForwarded
		}
		if errors.Is(err, errRefused) || time.Now().After(deadline) {
			return nil, fmt.Errorf("osFoundry is already running for %s but does not answer (%v): close it, or set OSFOUNDRY_HOME to use another data folder", dir, err)
		}
		time.Sleep(100 * time.Millisecond) // the other instance may be starting
	}
}

func listen(dir string, lock *os.File) (*Instance, error) {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("making the instance secret: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for later launches: %w", err)
	}
	inst := &Instance{lock: lock, ln: ln, secret: secret, info: filepath.Join(dir, infoName)}
	b, _ := json.Marshal(info{Addr: ln.Addr().String(), Secret: hex.EncodeToString(secret)})
	tmp := inst.info + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, inst.info); err != nil {
		ln.Close()
		return nil, fmt.Errorf("writing %s: %w", inst.info, err)
	}
	go inst.serve()
	return inst, nil
}

// Handle sets what a later launch does in this instance; launches that
// arrived before are handed over now.
func (i *Instance) Handle(fn func(Launch)) {
	i.mu.Lock()
	i.handle = fn
	pending := i.pending
	i.pending = nil
	i.mu.Unlock()
	for _, l := range pending {
		fn(l)
	}
}

// Close stops listening and releases the folder.
func (i *Instance) Close() {
	i.mu.Lock()
	if i.closed {
		i.mu.Unlock()
		return
	}
	i.closed = true
	i.mu.Unlock()
	i.ln.Close()
	os.Remove(i.info)
	i.lock.Close()
}

func (i *Instance) serve() {
	for {
		c, err := i.ln.Accept()
		if err != nil {
			return
		}
		go i.serveConn(c)
	}
}

// serveConn reads one message, answers "ok" or "refused", and hands an
// authenticated launch over.
func (i *Instance) serveConn(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(c, maxMessage)).ReadBytes('\n')
	if err != nil {
		refuse(c, "not a launch message (one JSON line under 64 KiB, sent within 2 s)")
		return
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		refuse(c, "not a launch message")
		return
	}
	got, _ := hex.DecodeString(m.Secret)
	if subtle.ConstantTimeCompare(got, i.secret) != 1 {
		refuse(c, "wrong instance secret")
		return
	}
	c.Write([]byte("ok\n"))
	i.mu.Lock()
	fn := i.handle
	if fn == nil {
		i.pending = append(i.pending, m.Launch)
	}
	i.mu.Unlock()
	if fn != nil {
		fn(m.Launch)
	}
}

// refuse answers a bad message, with a fresh deadline: the read may have
// used up the first one.
func refuse(c net.Conn, why string) {
	c.SetWriteDeadline(time.Now().Add(time.Second))
	c.Write([]byte("refused: " + why + "\n"))
}

var errRefused = errors.New("the running instance refused the launch")

// forward hands launch to the instance named in dir's instance.json.
func forward(dir string, launch Launch) error {
	b, err := os.ReadFile(filepath.Join(dir, infoName))
	if err != nil {
		return fmt.Errorf("reading the running instance's address: %w", err)
	}
	var in info
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("reading the running instance's address: %w", err)
	}
	host, _, err := net.SplitHostPort(in.Addr)
	if err != nil || host != "127.0.0.1" {
		return fmt.Errorf("%w: its address %q is not on loopback", errRefused, in.Addr)
	}
	c, err := net.DialTimeout("tcp", in.Addr, time.Second)
	if err != nil {
		return fmt.Errorf("reaching the running instance: %w", err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	msg, _ := json.Marshal(message{Secret: in.Secret, Launch: launch})
	if len(msg) > maxMessage {
		return fmt.Errorf("%w: the arguments are longer than %d bytes", errRefused, maxMessage)
	}
	if _, err := c.Write(append(msg, '\n')); err != nil {
		return fmt.Errorf("reaching the running instance: %w", err)
	}
	reply, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return fmt.Errorf("reading the running instance's answer: %w", err)
	}
	if reply != "ok\n" {
		return fmt.Errorf("%w: %s", errRefused, reply[:len(reply)-1])
	}
	return nil
}
