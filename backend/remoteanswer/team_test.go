package remoteanswer

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/teamsessions"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
	"github.com/osfoundry/desktop/backend/tools"
)

func TestMain(m *testing.M) { os.Exit(teamtest.Main(m)) }

var bg = context.Background()

// wire keeps every body the desktop sent to the team server and the last
// access token it used.
type wire struct {
	base   http.RoundTripper
	mu     sync.Mutex
	bodies []string
	token  string
}

func (w *wire) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		data, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(data))
		w.mu.Lock()
		w.bodies = append(w.bodies, r.URL.Path+" "+string(data))
		w.mu.Unlock()
	}
	if a := r.Header.Get("Authorization"); a != "" {
		w.mu.Lock()
		w.token = a
		w.mu.Unlock()
	}
	return w.base.RoundTrip(r)
}

// desk is alice's desktop: a joined client sharing one pane (FakePanes,
// a real Claude Code prompt capture) through the real Typist.
type desk struct {
	t      *testing.T
	c      *teamclient.Client
	share  *teamclient.SessionShare
	panes  *FakePanes
	audit  *tools.MemoryAuditor
	wire   *wire
	prompt []string
	after  []string
	mu     sync.Mutex
	since  int64
	typedC chan typed
	// going counts the "Running" cards an answer still has to emit: the
	// next prompt waits for them, or a late one would hide it.
	going sync.WaitGroup
}

type typed struct {
	Text string `json:"text"`
	At   int64  `json:"t"`
}

// card emits the board's card of the pane, as board:changed does.
func (d *desk) card(state string, since int64) {
	c := board.Card{Key: "terminal/p-1", Source: "terminal", ID: "p-1", Kind: board.KindTerminal, Title: "Claude Code in shop-api",
		Folder: "shop-api", Dir: "/home/alice/SECRET-client", State: state, UpdatedAt: since, Reason: "SECRET rule", Link: "/terminal?pane=p-1"}
	if state == board.NeedsYou {
		c.Why = "Do you want to proceed?"
	} else {
		c.Why = "Claude Code is working"
	}
	d.share.Tee(nopEmit{}).Emit(board.EventChanged, []board.Card{c})
}

type nopEmit struct{}

func (nopEmit) Emit(string, any) {}

// ask shows a new prompt in the pane and on the board; it returns its since.
func (d *desk) ask() int64 {
	d.going.Wait()
	d.mu.Lock()
	d.since = max(time.Now().UnixMilli(), d.since+1)
	since := d.since
	d.mu.Unlock()
	d.panes.set(d.prompt)
	d.card(board.NeedsYou, since)
	return since
}

func newDesk(t *testing.T, tm *teamtest.Team) *desk {
	t.Helper()
	dir := t.TempDir()
	w := &wire{base: tm.LB.Client.Transport}
	c := teamclient.New(teamclient.Options{Dir: dir, HTTP: &http.Client{Transport: w, Timeout: 30 * time.Second},
		Open: tm.ApproveDesktop(tm.Owner, "alice", "allow"), Device: "alice-laptop",
		Secrets: teamclient.TokenFile{Path: filepath.Join(dir, "team-token")}, JoinTimeout: time.Minute})
	if st, err := c.Join(bg, tm.LB.URL); err != nil || st.State != teamclient.Connected {
		t.Fatalf("joining: %+v %v", st, err)
	}
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	share, err := teamclient.NewSessionShare(bg, c, db, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	prompt := append([]string{"SECRET-SCREEN: rm -rf /home/alice/SECRET-client/build"}, screen(t, "claude-2.1.328.blocked.bash.screen.txt")...)
	d := &desk{t: t, c: c, share: share, panes: &FakePanes{}, audit: &tools.MemoryAuditor{}, wire: w,
		prompt: prompt, after: screen(t, "claude-2.1.328.after-answer.screen.txt"), typedC: make(chan typed, 16)}
	// The agent goes on once answered: its screen and card change.
	d.panes.OnSend = func(text string) {
		d.typedC <- typed{Text: text, At: time.Now().UnixMilli()}
		d.panes.set(d.after)
		d.going.Add(1)
		go func() {
			defer d.going.Done()
			d.card(board.Running, time.Now().UnixMilli())
		}()
	}
	ty, err := New(d.panes, blockedBy(t), d.audit)
	if err != nil {
		t.Fatal(err)
	}
	share.SetTypist(ty)
	return d
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// page fetches the Needs you page as b.
func page(t *testing.T, b *teamtest.Browser, base string) string {
	t.Helper()
	resp, err := b.Follow.Get(base + "/needs-you")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the page: %s\n%s", resp.Status, body)
	}
	return string(body)
}

// TestNeedsYouPage runs the journey against a real team server (two
// replicas on PostgreSQL behind haproxy with TLS, the zitadel OP): alice's
// desktop shares a pane whose screen is a real Claude Code permission
// prompt; the page (Go HTTP, then Chromium at a phone and a desktop
// viewport) shows it and answers it; the desktop types only through
// runtime_answer's guard. Then the refusals: answers off, another site,
// another person, a replay, a revoked desktop.
func TestNeedsYouPage(t *testing.T) {
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	base := tm.LB.URL
	d := newDesk(t, tm)
	// Alice's phone app listens on ntfy (a local listener on ntfy's wire)
	// from the start: the first prompt pushes, later ones within the
	// session's cooldown do not.
	ntfy := newNtfy(t)
	must(t, tm.Owner.API("PUT", base+"/api/push/ntfy", map[string]string{"server": ntfy.URL}, nil))
	ctx, stop := context.WithCancel(bg)
	defer stop()
	go d.share.Run(ctx)
	if v, err := d.share.SetSharing(bg, true); err != nil || !v.Sharing || v.Answers {
		t.Fatalf("sharing on: %+v %v", v, err)
	}
	since := d.ask()
	waitFor(t, "the prompt on the page", func() bool { return strings.Contains(page(t, tm.Owner, base), "Do you want to proceed?") })
	body := page(t, tm.Owner, base)
	for _, want := range []string{"Claude Code in shop-api", "on alice-laptop", "waiting", "Answers from this page are off on alice-laptop"} {
		if !strings.Contains(body, want) {
			t.Fatalf("the page lacks %q:\n%s", want, body)
		}
	}
	var sh teamsessions.Shared
	must(t, tm.Owner.API("GET", base+"/api/sessions", nil, &sh))
	if len(sh.Devices) != 1 || len(sh.Devices[0].Sessions) != 1 {
		t.Fatalf("alice's sessions: %+v", sh)
	}
	dev, ss := sh.Devices[0], sh.Devices[0].Sessions[0]
	if ss.ID != "terminal/p-1" || ss.Since != since || ss.Choices != 4 || ss.Line != "Do you want to proceed?" || dev.Answers {
		t.Fatalf("the shared session: %+v on %+v", ss, dev)
	}
	answer := func(b *teamtest.Browser, in teamsessions.AnswerRequest) (teamsessions.Answer, error) {
		var a teamsessions.Answer
		err := b.API("POST", base+"/api/sessions/answers", in, &a)
		return a, err
	}
	approve := teamsessions.AnswerRequest{Device: dev.ID, Session: ss.ID, Since: since, Answer: "approve"}
	if _, err := answer(tm.Owner, approve); err == nil || !strings.Contains(err.Error(), "409") || !strings.Contains(err.Error(), "answers from this page are off") {
		t.Fatalf("an answer while the desktop's switch is off: %v", err)
	}

	// The switch on: the page offers the answers.
	if v, err := d.share.SetAnswers(bg, true); err != nil || !v.Answers {
		t.Fatalf("answers on: %+v %v", v, err)
	}
	waitFor(t, "the answer buttons", func() bool { return strings.Contains(page(t, tm.Owner, base), `data-answer="approve"`) })

	// Another site cannot answer for alice's browser (CSRF), bob cannot
	// answer alice's session.
	req, _ := http.NewRequest("POST", base+"/api/sessions/answers", strings.NewReader(`{"device":"`+dev.ID+`","session":"terminal/p-1","since":1,"answer":"approve"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := tm.Owner.Once.Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("an answer from another site: %s", resp.Status)
	}
	if err := tm.Owner.API("POST", base+"/api/workspaces/"+tm.Workspace+"/members",
		map[string]any{"email": teamtest.People["bob"].Email, "role": "editor"}, nil); err != nil && !strings.Contains(err.Error(), "409") {
		t.Fatal(err)
	}
	bob := tm.LB.NewBrowser(tm.OP)
	if _, err := bob.SignIn(base+"/needs-you", "bob"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page(t, bob, base), "shop-api") {
		t.Fatal("bob's page shows alice's session")
	}
	if _, err := answer(bob, approve); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("bob answering alice's session: %v", err)
	}
	if n := len(d.panes.typed()); n != 0 {
		t.Fatalf("typed %d answers before any was given", n)
	}

	// Chromium: the phone and the desktop viewport.
	browserJourney(t, tm, d, ntfy)

	// A replayed answer is refused; the prompt it answered is gone.
	since = d.ask()
	waitFor(t, "the new prompt", func() bool { return strings.Contains(page(t, tm.Owner, base), fmt.Sprintf(`data-since="%d"`, since)) })
	approve.Since = since
	a, err := answer(tm.Owner, approve)
	must(t, err)
	got := <-d.typedC
	if got.Text != "1" {
		t.Fatalf("approve typed %q", got.Text)
	}
	waitFor(t, "the answer's result", func() bool {
		var st teamsessions.Answer
		return tm.Owner.API("GET", base+"/api/sessions/answers/"+a.ID, nil, &st) == nil && st.State == teamsessions.StateAnswered
	})
	if _, err := answer(tm.Owner, approve); err == nil || !strings.Contains(err.Error(), "409") {
		t.Fatalf("a replayed answer: %v", err)
	}

	// Off on the desktop while an answer waits: it is refused, nothing typed.
	stop()
	time.Sleep(100 * time.Millisecond)
	since = d.ask()
	d.share.Sync(bg) // the desktop still uploads; it no longer listens
	waitFor(t, "the third prompt", func() bool { return strings.Contains(page(t, tm.Owner, base), fmt.Sprintf(`data-since="%d"`, since)) })
	approve.Since = since
	a, err = answer(tm.Owner, approve)
	must(t, err)
	if v, err := d.share.SetAnswers(bg, false); err != nil || v.Answers {
		t.Fatalf("answers off: %+v %v", v, err)
	}
	var st teamsessions.Answer
	must(t, tm.Owner.API("GET", base+"/api/sessions/answers/"+a.ID, nil, &st))
	if st.State != teamsessions.StateOff || len(d.typedC) != 0 {
		t.Fatalf("an answer that waited while the switch went off: %+v, typed %d", st, len(d.typedC))
	}
	if !strings.Contains(page(t, tm.Owner, base), "Answers from this page are off on alice-laptop") {
		t.Fatal("the page does not say answers are off")
	}

	// Revoked from the page: an answer given before the desktop's sign-in
	// ended cannot be claimed with its old token, and no new one is taken.
	must2(d.share.SetAnswers(bg, true))
	since = d.ask()
	d.share.Sync(bg)
	approve.Since = since
	a, err = answer(tm.Owner, approve)
	must(t, err)
	d.wire.mu.Lock()
	token := d.wire.token
	d.wire.mu.Unlock()
	// bob cannot sign alice's desktop out; alice does, from her page.
	if err := bob.API("POST", base+"/api/sessions/devices/"+dev.ID+"/revoke", nil, nil); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("bob signing alice's desktop out: %v", err)
	}
	must(t, tm.Owner.API("POST", base+"/api/sessions/devices/"+dev.ID+"/revoke", nil, nil))
	if strings.Contains(page(t, tm.Owner, base), "alice-laptop") {
		t.Fatal("the page still lists the desktop it signed out")
	}
	req, _ = http.NewRequest("POST", base+"/api/sessions/device/answers/"+url.PathEscape(a.ID)+"/claim", nil)
	req.Header.Set("Authorization", token)
	resp, err = tm.LB.Client.Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a claim with a revoked sign-in's token: %s", resp.Status)
	}
	if _, err := answer(tm.Owner, approve); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("an answer for a revoked desktop: %v", err)
	}

	// Nothing of the terminal beyond the matched line went over the wire.
	d.wire.mu.Lock()
	defer d.wire.mu.Unlock()
	var puts int
	for _, b := range d.wire.bodies {
		for _, leak := range []string{"SECRET", "/home/", "always allow access", "switch to auto mode", "Bash command", "osf-marker"} {
			if strings.Contains(b, leak) {
				t.Fatalf("the desktop sent %q: %s", leak, b)
			}
		}
		if strings.HasPrefix(b, "/api/sessions/device ") && strings.Contains(b, "Do you want to proceed?") {
			puts++
		}
	}
	if puts == 0 {
		t.Fatal("no upload carried the matched line: the wire check saw nothing")
	}
	// Every answer is in the desktop's audit with the browser it came from.
	var fromChromium, fromGo int
	for _, e := range d.audit.Entries() {
		if e.Tool != "runtime_answer" || e.Channel != Channel {
			t.Fatalf("audit entry %+v", e)
		}
		switch {
		case strings.Contains(e.Source, "osf-e2e-phone"), strings.Contains(e.Source, "osf-e2e-desktop"):
			fromChromium++
		case strings.Contains(e.Source, "Go-http-client"):
			fromGo++
		}
	}
	if fromChromium == 0 || fromGo == 0 {
		t.Fatalf("the audit's origins: %d from Chromium, %d from Go: %+v", fromChromium, fromGo, d.audit.Entries())
	}
	pageWeight(t, tm)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func must2(_ teamclient.SessionsView, err error) {
	if err != nil {
		panic(err)
	}
}

// ntfyListener keeps what was published: title | body | click link.
type ntfyListener struct {
	*httptest.Server
	mu  sync.Mutex
	all []string
}

func newNtfy(t *testing.T) *ntfyListener {
	n := &ntfyListener{}
	n.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n.mu.Lock()
		n.all = append(n.all, r.Header.Get("Title")+" | "+string(body)+" | "+r.Header.Get("Click"))
		n.mu.Unlock()
	}))
	t.Cleanup(n.Close)
	return n
}

func (n *ntfyListener) got() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.all)
}

// pageWeight is what a first load fetches, as sent and gzip-compressed.
func pageWeight(t *testing.T, tm *teamtest.Team) {
	var raw, gz int
	for _, p := range []string{"/needs-you", "/needs-you/needs-you.js", "/needs-you/manifest.webmanifest", "/needs-you/icon.svg", "/needs-you/icon-192.png", "/api/push/ntfy/qr.png"} {
		resp, err := tm.Owner.Follow.Get(tm.LB.URL + p)
		must(t, err)
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", p, resp.Status)
		}
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		w.Write(data)
		w.Close()
		raw, gz = raw+len(data), gz+b.Len()
	}
	t.Logf("page weight on first load: %d bytes, %d bytes gzip-compressed", raw, gz)
	if gz > 200<<10 {
		t.Fatalf("the page weighs %d bytes compressed, over 200 KB", gz)
	}
}

// browserJourney drives Chromium (frontend/e2e/teampage/needs-you.mjs)
// against the team server, with alice's session cookie; this test is its
// control channel: /ask shows a new prompt, /desk answers it at the desk,
// /typed hands over what the pane received, /ntfy what ntfy received.
func browserJourney(t *testing.T, tm *teamtest.Team, d *desk, n *ntfyListener) {
	mux := http.NewServeMux()
	reply := func(w http.ResponseWriter, v any) { _ = json.NewEncoder(w).Encode(v) }
	mux.HandleFunc("POST /ask", func(w http.ResponseWriter, r *http.Request) {
		at := time.Now().UnixMilli()
		reply(w, map[string]int64{"since": d.ask(), "t": at})
	})
	mux.HandleFunc("POST /desk", func(w http.ResponseWriter, r *http.Request) {
		d.panes.set(d.after) // answered at the desk; the board has not swept yet
		reply(w, map[string]bool{"ok": true})
	})
	mux.HandleFunc("GET /typed", func(w http.ResponseWriter, r *http.Request) {
		select {
		case got := <-d.typedC:
			reply(w, got)
		case <-time.After(5 * time.Second):
			reply(w, typed{})
		}
	})
	mux.HandleFunc("GET /ntfy", func(w http.ResponseWriter, r *http.Request) { reply(w, n.got()) })
	control := httptest.NewServer(mux)
	defer control.Close()
	runNode(t, "needs-you.mjs", tm, "CONTROL="+control.URL, "NTFY="+n.URL)
}

// runNode runs a script of frontend/e2e/teampage with node against the
// team server, signed in as alice (her browser's cookies); it logs what
// the script prints and fails the test with what it says when it fails.
func runNode(t *testing.T, script string, tm *teamtest.Team, env ...string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: make deps-test installs it")
	}
	if _, err := os.Stat("/usr/bin/chromium"); err != nil && os.Getenv("CHROMIUM") == "" {
		t.Fatal("no Chromium at /usr/bin/chromium: make deps-test installs Debian's chromium (or set CHROMIUM)")
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "frontend", "e2e", "teampage")
	u, _ := url.Parse(tm.LB.URL)
	var cookies []map[string]string
	for _, c := range tm.Owner.Follow.Jar.Cookies(u) {
		cookies = append(cookies, map[string]string{"name": c.Name, "value": c.Value, "url": tm.LB.URL})
	}
	cj, _ := json.Marshal(cookies)
	out := os.Getenv("OSF_NEEDS_YOU_SHOTS")
	if out == "" {
		out = t.TempDir()
	}
	cmd := exec.Command(node, filepath.Join(dir, script))
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "BASE="+tm.LB.URL, "COOKIES="+string(cj), "SHOTS="+out), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		t.Log(l)
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("%s failed:\n%s", script, stderr.String())
		}
		t.Fatal(err)
	}
}
