// Package teamclient joins the desktop to an osFoundry team server: it
// checks the address is one, signs the person in as a native app (RFC
// 8252: the system browser, a loopback redirect, PKCE), keeps the refresh
// token in the OS keychain (a 0600 file only where none exists), and says
// whether the app is connected, offline, signed out or needs a new
// sign-in.
//
// It never sends anything of the person's projects, terminals or sessions:
// joining only proves who the person is. A person who never joins sees no
// difference: without a saved team, Status answers signed out without
// touching the network, the keychain or the disk. It never logs a token.
package teamclient

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// State is how the app stands with its team server.
type State string

const (
	SignedOut State = "signed_out" // never joined, or signed out
	Connected State = "connected"  // the server answered with the person
	Offline   State = "offline"    // joined, but the server cannot be reached now
	Expired   State = "expired"    // joined, but the sign-in was revoked or expired: sign in again
)

// Errors Join and SignOut return; the message says what to do.
var (
	// ErrNotTeamServer: the address answers, but not as an osFoundry team server.
	ErrNotTeamServer = errors.New("not an osFoundry team server")
	// ErrUnreachable: nothing answered at the address.
	ErrUnreachable = errors.New("the team server cannot be reached")
	// ErrNeedsUpdate: the server speaks a newer desktop API than this app.
	ErrNeedsUpdate = errors.New("this team server needs a newer osFoundry desktop")
	// ErrDeclined: the person pressed Cancel on the confirmation page, or
	// the server refused the sign-in.
	ErrDeclined = errors.New("the sign-in was declined")
	// ErrBusy: a sign-in is already waiting for the browser.
	ErrBusy = errors.New("a sign-in is already under way")
)

// APIVersion is the desktop API this app speaks (teamauth.DesktopAPI).
const APIVersion = 1

// Person is who the app is signed in as.
type Person struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Workspace is a workspace the person belongs to on the server.
type Workspace struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Role   string `json:"role"`
	Runner bool   `json:"runner"`
}

// Status is what Settings → Team and the header show.
type Status struct {
	State      State       `json:"state"`
	Server     string      `json:"server"` // "" when never joined
	Team       string      `json:"team"`   // the workspaces' names, or the server's host
	Person     Person      `json:"person"`
	Workspaces []Workspace `json:"workspaces"`
	// TokenStore says where the sign-in is kept ("Secret Service",
	// "macOS Keychain", "Windows Credential Manager", or a file).
	TokenStore string `json:"tokenStore"`
	Message    string `json:"message"` // why offline or expired, what to do
}

// EventStatus is emitted with the new Status whenever it changes.
const EventStatus = "team:status"

// Emitter sends events to the window (wailsui.Emitter in the app).
type Emitter interface {
	Emit(event string, payload any)
}

type noEmit struct{}

func (noEmit) Emit(string, any) {}

// Options are what varies between the app and tests.
type Options struct {
	// Dir is the data folder: team.json (server, person; no secret) and,
	// without a keychain, the token file.
	Dir string
	// HTTP talks to the server (nil: a client with a 20 s timeout).
	HTTP *http.Client
	// Open shows a URL in the system browser.
	Open func(url string) error
	// Device names this computer on the confirmation page (default: the
	// host name).
	Device string
	// Secrets keeps the refresh token (nil: ChooseSecrets(Dir) at the
	// first sign-in, so a person who never joins never wakes the keychain).
	Secrets Secrets
	Emit    Emitter
	Now     func() time.Time
	// JoinTimeout is how long Join waits for the browser (default 10 min).
	JoinTimeout time.Duration
	// APIVersion overrides APIVersion (tests of an older app).
	APIVersion int
}

// Client is the app's link to its team server; safe for concurrent use.
type Client struct {
	o Options

	mu      sync.Mutex // guards the fields below and serialises refreshes
	access  string
	expires time.Time
	joining context.CancelFunc
	last    Status
}

// New returns a client; it reads nothing until asked.
func New(o Options) *Client {
	if o.HTTP == nil {
		o.HTTP = &http.Client{Timeout: 20 * time.Second}
	}
	if o.Emit == nil {
		o.Emit = noEmit{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Device == "" {
		o.Device, _ = os.Hostname()
	}
	if o.JoinTimeout <= 0 {
		o.JoinTimeout = 10 * time.Minute
	}
	if o.APIVersion == 0 {
		o.APIVersion = APIVersion
	}
	return &Client{o: o, last: Status{State: SignedOut}}
}

func (c *Client) configPath() string { return filepath.Join(c.o.Dir, "team.json") }

// emit sends st when it differs from the last status sent.
func (c *Client) emit(st Status) {
	c.mu.Lock()
	same := sameStatus(c.last, st)
	c.last = st
	c.mu.Unlock()
	if !same {
		c.o.Emit.Emit(EventStatus, st)
	}
}

func sameStatus(a, b Status) bool {
	if a.State != b.State || a.Server != b.Server || a.Team != b.Team || a.Person != b.Person ||
		a.Message != b.Message || a.TokenStore != b.TokenStore || len(a.Workspaces) != len(b.Workspaces) {
		return false
	}
	for i := range a.Workspaces {
		if a.Workspaces[i] != b.Workspaces[i] {
			return false
		}
	}
	return true
}
