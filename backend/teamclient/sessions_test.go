package teamclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// views keeps every team:sessions a desktop emitted.
type views struct {
	mu   sync.Mutex
	last SessionsView
	n    int
}

func (v *views) Emit(event string, payload any) {
	if event != EventSessions {
		return
	}
	v.mu.Lock()
	v.last, v.n = payload.(SessionsView), v.n+1
	v.mu.Unlock()
}

func (v *views) get() SessionsView {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.last
}

// offline makes a desktop's network fail while on.
type offline struct {
	base http.RoundTripper
	on   atomic.Bool
}

func (o *offline) RoundTrip(r *http.Request) (*http.Response, error) {
	if o.on.Load() {
		return nil, errors.New("network is unreachable")
	}
	return o.base.RoundTrip(r)
}

// shareDesktop is a joined desktop with its own database and sharing.
type shareDesktop struct {
	*desktop
	db    string
	net   *offline
	views *views
	s     *SessionShare
}

func newShareDesktop(t *testing.T, tm *teamtest.Team, b *teamtest.Browser, user, device string) *shareDesktop {
	t.Helper()
	d := newDesktop(t, tm, approveAs(t, tm, b, user, "allow"))
	d.o.Device = device
	net := &offline{base: d.o.HTTP.Transport}
	d.o.HTTP.Transport = net
	if st, err := d.Join(bg, tm.LB.URL); err != nil || st.State != Connected {
		t.Fatalf("%s joining: %+v %v", user, st, err)
	}
	sd := &shareDesktop{desktop: d, db: filepath.Join(d.dir, "osfoundry.db"), net: net}
	sd.open(t)
	return sd
}

// open starts the desktop's sharing over its database (again: a restart).
func (d *shareDesktop) open(t *testing.T) {
	t.Helper()
	db, err := store.Open(d.db)
	must(t, err)
	t.Cleanup(func() { db.Close() })
	d.views = &views{}
	d.s, err = NewSessionShare(bg, d.Client, db, d.views, nil)
	must(t, err)
}

// board feeds cards to the desktop the way the Sessions board's
// board:changed event does.
func (d *shareDesktop) board(cards ...board.Card) {
	d.s.Tee(noEmit{}).Emit(board.EventChanged, cards)
}

// devices is what the server answers this desktop for its person.
func (d *shareDesktop) devices(t *testing.T) []SharedDevice {
	t.Helper()
	var raw json.RawMessage
	_, err := d.Call(bg, http.MethodGet, "/api/sessions", nil, &raw)
	must(t, err)
	for _, leak := range []string{"SECRET", "/home/", "folder", "reason", "why", "dir"} {
		if strings.Contains(string(raw), leak) {
			t.Fatalf("the server's list carries %q: %s", leak, raw)
		}
	}
	var got SharedSessions
	must(t, json.Unmarshal(raw, &got))
	return got.Devices
}

// Share sessions: alice turns it on for her laptop; her second desktop and
// an assistant she connected see exactly kind, title, state and, for the
// session that needs her, the matched line — no terminal text, folder or
// reason; bob sees none of hers (nor she his); off removes them at once,
// and offline the removal waits in the app's database until the server
// is back.
func testSharedSessions(t *testing.T, tm *teamtest.Team) {
	if err := tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/members",
		map[string]any{"email": teamtest.People["bob"].Email, "role": "editor"}, nil); err != nil && !strings.Contains(err.Error(), "409") {
		t.Fatal(err)
	}
	bobBrowser := tm.LB.NewBrowser(tm.OP)
	a := newShareDesktop(t, tm, tm.Owner, "alice", "alice-laptop")
	b := newShareDesktop(t, tm, tm.Owner, "alice", "alice-desktop")
	bob := newShareDesktop(t, tm, bobBrowser, "bob", "bob-laptop")

	// What a terminal card holds beside what may leave.
	ask := board.Card{ID: "p-1", Kind: board.KindTerminal, Title: "Claude Code in shop-api", State: board.NeedsYou,
		Why: "Do you want to make this edit to main.go?", Folder: "shop-api", Dir: "/home/alice/SECRET-client",
		Reason: "rules/claude.toml rule 1 (blocked): SECRET screen text", Branch: "osf/SECRET", Link: "/terminal?pane=p-1"}
	work := board.Card{ID: "c-1", Kind: board.KindChat, Title: "Plan the release", State: board.Running,
		Why: "SECRET reading CHANGELOG.md", Folder: "release"}
	shell := board.Card{ID: "p-2", Kind: board.KindTerminal, Title: "npm run dev", State: board.Idle, Why: "Waiting for input", Dir: "/home/alice/web"}
	a.board(work, ask, shell)
	bob.board(board.Card{ID: "p-9", Kind: board.KindTerminal, Title: "bob's pane", State: board.NeedsYou, Why: "Allow bob's command?"})

	ctx, stop := context.WithCancel(bg)
	defer stop()
	for _, d := range []*shareDesktop{a, b, bob} {
		go d.s.Run(ctx)
	}
	// Off by default: nothing leaves.
	time.Sleep(300 * time.Millisecond)
	if v := a.s.View(bg); v.Sharing || len(b.devices(t)) != 0 {
		t.Fatalf("before turning it on: %+v, the server has %+v", v, b.devices(t))
	}

	want := []SharedSession{
		{Kind: "terminal", Title: "Claude Code in shop-api", State: "needs_you", Line: "Do you want to make this edit to main.go?", ID: "terminal/p-1"},
		{Kind: "chat", Title: "Plan the release", State: "running", ID: "chat/c-1"},
		{Kind: "terminal", Title: "npm run dev", State: "idle", ID: "terminal/p-2"},
	}
	// Alice's phone subscribes to ntfy (a local listener here, on ntfy's wire).
	var pushed sync.Mutex
	var pushes []string
	ntfy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		pushed.Lock()
		pushes = append(pushes, r.Method+" "+r.Header.Get("Title")+" | "+string(body))
		pushed.Unlock()
	}))
	defer ntfy.Close()
	if err := tm.Owner.API("PUT", tm.LB.URL+"/api/push/ntfy", map[string]string{"server": ntfy.URL}, nil); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if v, err := a.s.SetSharing(bg, true); err != nil || !v.Sharing || v.Message != "" {
		t.Fatalf("turning sharing on: %+v %v", v, err)
	}
	waitFor(t, "alice's other desktop to see her laptop's sessions", func() bool {
		v := b.views.get()
		return len(v.Devices) == 1 && reflect.DeepEqual(v.Devices[0].Sessions, want)
	})
	t.Logf("alice's sessions on her other desktop %v after turning sharing on", time.Since(t0))
	if ds := b.devices(t); len(ds) != 1 || ds[0].Name != "alice-laptop" || ds[0].Current || !reflect.DeepEqual(ds[0].Sessions, want) {
		t.Fatalf("alice's other desktop reads %+v", ds)
	}
	if ds := a.devices(t); len(ds) != 1 || !ds[0].Current {
		t.Fatalf("the sharing desktop reads %+v", ds)
	}
	waitFor(t, "alice's phone to be told", func() bool { pushed.Lock(); defer pushed.Unlock(); return len(pushes) > 0 })
	pushed.Lock()
	if len(pushes) != 1 || pushes[0] != "POST Claude Code in shop-api needs you | Do you want to make this edit to main.go? (on alice-laptop)" {
		t.Fatalf("the pushes: %q", pushes)
	}
	pushed.Unlock()
	var leaked int
	must(t, tm.Pool().QueryRow(bg, `SELECT count(*) FROM shared_sessions s JOIN shared_session_devices d USING (person_id, device)
		WHERE s.title || s.line || d.name LIKE '%SECRET%' OR s.title || s.line LIKE '%/home/%'`).Scan(&leaked))
	if leaked != 0 {
		t.Fatal("terminal text, a folder or a reason reached the server")
	}

	// An assistant alice connected reads the same, and only hers.
	mcp, _ := tm.Connect(t, "Claude", nil)
	var viaMCP SharedSessions
	res, err := mcp.Call(bg, "list_shared_sessions", map[string]any{})
	if err != nil || res.IsError {
		t.Fatalf("list_shared_sessions: %+v %v", res, err)
	}
	must(t, json.Unmarshal([]byte(res.Text), &viaMCP))
	if len(viaMCP.Devices) != 1 || viaMCP.Devices[0].Name != "alice-laptop" || !reflect.DeepEqual(viaMCP.Devices[0].Sessions, want) ||
		strings.Contains(res.Text, "SECRET") || strings.Contains(res.Text, "/home/") {
		t.Fatalf("list_shared_sessions as alice: %s", res.Text)
	}

	// bob shares his own; neither sees the other's.
	must2(t)(bob.s.SetSharing(bg, true))
	if ds := bob.devices(t); len(ds) != 1 || ds[0].Name != "bob-laptop" {
		t.Fatalf("bob reads %+v", ds)
	}
	bobMCP := &connecttest.Client{HTTP: tm.LB.Client, Resource: tm.LB.URL + "/mcp", Name: "bob's Claude", Redirect: "http://127.0.0.1:1/cb",
		Browser: &connecttest.Browser{Base: tm.LB.URL, Client: bobBrowser.Once}}
	if tok, _, err := bobMCP.Discover(bg); err != nil || tok.AccessToken == "" {
		t.Fatalf("connecting bob's assistant: %+v %v", tok, err)
	}
	res, err = bobMCP.Call(bg, "list_shared_sessions", map[string]any{})
	if err != nil || res.IsError || strings.Contains(res.Text, "alice") || strings.Contains(res.Text, "shop-api") || !strings.Contains(res.Text, "bob-laptop") {
		t.Fatalf("list_shared_sessions as bob: %+v %v", res, err)
	}
	if ds := b.devices(t); len(ds) != 1 || ds[0].Name != "alice-laptop" {
		t.Fatalf("alice reads %+v after bob shared", ds)
	}

	// The prompt answered: the card runs again, its line is gone, live.
	running := ask
	running.State, running.Why = board.Running, "Claude Code is working"
	t0 = time.Now()
	a.board(work, running, shell)
	waitFor(t, "the answered session to run on the other desktop", func() bool {
		v := b.views.get()
		return len(v.Devices) == 1 && len(v.Devices[0].Sessions) == 3 && v.Devices[0].Sessions[0].State == "running"
	})
	if lat := time.Since(t0); lat > time.Second {
		t.Fatalf("a change reached the other desktop after %v, want ≤ 1 s", lat)
	} else {
		t.Logf("a change on alice's laptop on her other desktop after %v", lat)
	}
	for _, ss := range b.devices(t)[0].Sessions {
		if ss.Line != "" {
			t.Fatalf("a session that does not need alice carries a line: %+v", ss)
		}
	}

	// The server takes nothing more than those fields, and no line unless
	// the session needs the person.
	for name, body := range map[string]any{
		"a field more":          map[string]any{"sessions": []map[string]string{{"kind": "terminal", "title": "x", "state": "idle", "dir": "/home/alice"}}},
		"a line while running":  map[string]any{"sessions": []SharedSession{{Kind: "terminal", Title: "x", State: "running", Line: "screen text"}}},
		"a state of its own":    map[string]any{"sessions": []SharedSession{{Kind: "terminal", Title: "x", State: "blocked"}}},
		"a title of many lines": map[string]any{"sessions": []SharedSession{{Kind: "chat", Title: "line one\nline two", State: "idle"}}},
	} {
		var refused *APIError
		if _, err := a.Call(bg, http.MethodPut, "/api/sessions/device", body, nil); !errors.As(err, &refused) || refused.Status != http.StatusBadRequest {
			t.Fatalf("uploading %s: %v", name, err)
		}
	}

	// Off removes them at once.
	must2(t)(a.s.SetSharing(bg, true)) // the refused uploads above left the list as it was
	if v, err := a.s.SetSharing(bg, false); err != nil || v.Sharing || v.Pending || v.Message != "" {
		t.Fatalf("turning sharing off: %+v %v", v, err)
	}
	if ds := b.devices(t); len(ds) != 0 {
		t.Fatalf("after turning sharing off the server still lists %+v", ds)
	}
	waitFor(t, "the other desktop to see them gone", func() bool { return len(b.views.get().Devices) == 0 })
	res, err = mcp.Call(bg, "list_shared_sessions", map[string]any{})
	if err != nil || strings.Contains(res.Text, "alice-laptop") || !strings.Contains(res.Text, "No shared sessions") {
		t.Fatalf("list_shared_sessions after turning it off: %+v %v", res, err)
	}

	// Offline: the removal waits in the app's database, across a restart,
	// and happens when the server is back.
	must2(t)(a.s.SetSharing(bg, true))
	waitFor(t, "sharing on again", func() bool { return len(b.devices(t)) == 1 })
	stop()
	a.net.on.Store(true)
	v, err := a.s.SetSharing(bg, false)
	if err != nil || v.Sharing || !v.Pending || !strings.Contains(v.Message, "removed from it as soon as it is back") {
		t.Fatalf("turning sharing off offline: %+v %v", v, err)
	}
	if len(b.devices(t)) != 1 {
		t.Fatal("the list went away although the server was never told")
	}
	a.open(t) // the app restarts, still offline
	if v := a.s.View(bg); !v.Pending || v.Sharing {
		t.Fatalf("after a restart the removal is forgotten: %+v", v)
	}
	a.net.on.Store(false)
	ctx, stop = context.WithCancel(bg)
	defer stop()
	go a.s.Run(ctx)
	waitFor(t, "the owed removal", func() bool { return len(b.devices(t)) == 0 && !a.s.View(bg).Pending })
}

func must2(t *testing.T) func(SessionsView, error) {
	return func(_ SessionsView, err error) {
		t.Helper()
		must(t, err)
	}
}
