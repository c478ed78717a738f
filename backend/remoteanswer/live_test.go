package remoteanswer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/panetools"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/teamsessions"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/panewait"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
	"github.com/osfoundry/desktop/backend/tools"
	"github.com/osfoundry/desktop/rules"
)

// Live: the real Claude Code (build/agents, against the fake model) in a
// real pane, with detection, the Sessions board and sharing wired as the
// app wires them, joined to a real team server. The fake model asks for a
// Bash command; the permission prompt reaches the person's page; Approve
// there is typed through runtime_answer's guard and Claude Code runs the
// command (its result goes back to the model). Then the same with the
// prompt answered at the desk first: nothing more is typed.
func TestLiveClaudeAnsweredFromThePage(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL) // skips without the pinned Claude Code
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	base := tm.LB.URL

	// The desktop: panes, detection, the board and sharing.
	reg, _, err := detect.Load(rules.Files, "")
	must(t, err)
	mgr := terminal.NewManager(nil)
	w, err := panestate.New(mgr, panestate.Config{Registry: reg})
	must(t, err)
	w.Start()
	t.Cleanup(func() { mgr.CloseAll(); w.Close() })
	dir := t.TempDir()
	wr := &wire{base: tm.LB.Client.Transport}
	c := teamclient.New(teamclient.Options{Dir: dir, HTTP: newHTTP(wr), Open: tm.ApproveDesktop(tm.Owner, "alice", "allow"),
		Device: "alice-workstation", Secrets: teamclient.TokenFile{Path: filepath.Join(dir, "team-token")}, JoinTimeout: time.Minute})
	if st, err := c.Join(bg, base); err != nil || st.State != teamclient.Connected {
		t.Fatalf("joining: %+v %v", st, err)
	}
	db, err := store.Open(filepath.Join(dir, store.FileName))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	share, err := teamclient.NewSessionShare(bg, c, db, nil, nil)
	must(t, err)
	panes, err := panetools.New(mgr, reg)
	must(t, err)
	audit := &tools.MemoryAuditor{}
	ty, err := New(panes, panes.Blocked, audit)
	must(t, err)
	share.SetTypist(ty)
	b := board.New(t.TempDir(), share.Tee(nopEmit{}))
	b.Add("terminal", board.NewTerminal(mgr, w, b.Changed))
	ctx, stop := context.WithCancel(bg)
	defer stop()
	go share.Run(ctx)
	must2(share.SetSharing(bg, true))
	must2(share.SetAnswers(bg, true))

	srv.Push(fakemodel.ClaudeBash("touch osf-bash.txt && echo osf-marker-$((6*7))", "Create a marker file"), fakemodel.Text("All done."))
	info, err := mgr.Create(terminal.Options{Dir: e.Work, Argv: e.Argv("--permission-mode", "default"), Env: e.Env, Cols: 120, Rows: 32})
	must(t, err)
	p, _ := mgr.Get(info.ID)
	panewait.Screen(t, p, regexp.MustCompile(`\? for shortcuts`))
	panewait.TypeLine(t, p, "Print the marker with the shell")

	// The prompt on the page: measured from the pane turning blocked.
	blockedAt := waitState(t, w, info.ID, "blocked")
	ss, dev := waitWaiting(t, tm, 0, 0)
	t.Logf("Claude Code's prompt on the page %v after the pane turned blocked (line %q)",
		time.Since(blockedAt).Round(time.Millisecond), ss.Line)
	// Its menu is counted once drawn (never sent: only the count).
	ss, dev = waitWaiting(t, tm, 0, 2)
	t.Logf("with its %d choices %v after the pane turned blocked", ss.Choices, time.Since(blockedAt).Round(time.Millisecond))
	if ss.Kind != "terminal" {
		t.Fatalf("the shared prompt: %+v", ss)
	}
	panewait.Screen(t, p, regexp.MustCompile(`Do you want to proceed\?`))
	time.Sleep(500 * time.Millisecond) // the TUI takes keys once the prompt has settled

	// Approve on the page: Claude Code runs the command.
	t0 := time.Now()
	var a teamsessions.Answer
	must(t, tm.Owner.API("POST", base+"/api/sessions/answers", teamsessions.AnswerRequest{Device: dev, Session: ss.ID, Since: ss.Since, Answer: "approve"}, &a))
	st := waitAnswer(t, tm, a.ID)
	t.Logf("Approve on the page → answered in the pane after %v", time.Since(t0).Round(time.Millisecond))
	if st.State != teamsessions.StateAnswered {
		t.Fatalf("the answer: %+v", st)
	}
	if !srv.WaitMain(2, 45*time.Second) {
		t.Fatalf("Claude Code never ran the approved command:\n%s", strings.Join(p.Screen().Lines, "\n"))
	}
	if res := srv.MainRequests()[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text, "osf-marker-42") {
		t.Fatalf("tool result = %+v, want the marker (the approval ran the command)", res)
	}
	waitState(t, w, info.ID, "idle")

	// Answered at the desk first: the page's answer types nothing.
	srv.Push(fakemodel.ClaudeBash("touch osf-second.txt && echo osf-second-$((6*7))", "Create a second marker"), fakemodel.Text("Done again."))
	panewait.TypeLine(t, p, "Print a second marker")
	waitState(t, w, info.ID, "blocked")
	ss, dev = waitWaiting(t, tm, ss.Since, 0)
	panewait.Screen(t, p, regexp.MustCompile(`Do you want to proceed\?`))
	time.Sleep(500 * time.Millisecond)
	before := len(audit.Entries())
	// The desktop is slow to tell the server (its uploads held back here),
	// so the page still offers the prompt the person already answered at
	// the desk; the answer reaches the desktop, whose guard re-reads the
	// screen at the moment of typing and types nothing.
	stop()
	p.Write([]byte("\r")) // the person at the desk picks Yes
	for i := 0; i < 3 && slices.ContainsFunc(p.Screen().Lines, func(l string) bool { return strings.Contains(l, "Do you want to proceed?") }); i++ {
		time.Sleep(2 * time.Second)
		if slices.ContainsFunc(p.Screen().Lines, func(l string) bool { return strings.Contains(l, "Do you want to proceed?") }) {
			p.Write([]byte("\r")) // a key dropped while the prompt drew
		}
	}
	if !srv.WaitMain(4, 45*time.Second) {
		t.Fatal("Claude Code did not go on after the desk's answer")
	}
	must(t, tm.Owner.API("POST", base+"/api/sessions/answers", teamsessions.AnswerRequest{Device: dev, Session: ss.ID, Since: ss.Since, Answer: "decline"}, &a))
	share.TakeAnswers(bg)
	if st := waitAnswer(t, tm, a.ID); st.State != teamsessions.StateGone {
		t.Fatalf("the page's answer to a prompt answered at the desk: %+v", st)
	}
	if res := srv.MainRequests()[3].ToolResults(); len(res) == 0 || !strings.Contains(res[len(res)-1].Text, "osf-second-42") {
		t.Fatalf("the desk's Yes did not run the command: %+v", res)
	}
	for _, en := range audit.Entries()[before:] {
		if en.Decision == tools.DecisionRan && !strings.Contains(en.Detail, "not waiting") {
			t.Fatalf("something was typed after the desk answered: %+v", en)
		}
	}

	// On a phone in Chromium: the prompt shows, Approve, Claude Code goes on.
	ctx, stop = context.WithCancel(bg)
	defer stop()
	go share.Run(ctx)
	mux := http.NewServeMux()
	reply := func(w http.ResponseWriter, v any) { _ = json.NewEncoder(w).Encode(v) }
	mux.HandleFunc("POST /ask", func(w http.ResponseWriter, r *http.Request) {
		srv.Push(fakemodel.ClaudeBash("touch osf-third.txt && echo osf-third-$((6*7))", "Create a third marker"), fakemodel.Text("Third done."))
		panewait.Screen(t, p, regexp.MustCompile(`\? for shortcuts`))
		panewait.TypeLine(t, p, "Create the third marker")
		reply(w, map[string]int64{"t": time.Now().UnixMilli()})
	})
	mux.HandleFunc("GET /ran", func(w http.ResponseWriter, r *http.Request) {
		ok := srv.WaitMain(6, 45*time.Second)
		res := srv.MainRequests()
		ok = ok && len(res) >= 6 && slices.ContainsFunc(res[5].ToolResults(), func(r fakemodel.ToolResult) bool { return strings.Contains(r.Text, "osf-third-42") })
		reply(w, map[string]any{"ok": ok, "t": time.Now().UnixMilli()})
	})
	control := httptest.NewServer(mux)
	defer control.Close()
	runNode(t, "needs-you-live.mjs", tm, "CONTROL="+control.URL)

	// Claude Code asks a question: a reply from the page is its answer. One
	// this long, typed with its Enter in one write, stays in the field.
	srv.Push(fakemodel.ClaudeAsk("Format", "Which format should the README use?", "Markdown", "Plain text"), fakemodel.Text("Noted."))
	panewait.Screen(t, p, regexp.MustCompile(`\? for shortcuts`))
	n := len(srv.MainRequests())
	panewait.TypeLine(t, p, "Plan the README")
	waitState(t, w, info.ID, "blocked")
	ss, dev = waitWaiting(t, tm, 0, 3)
	panewait.Screen(t, p, regexp.MustCompile(`Type something`))
	const longReply = "AsciiDoc, short — one section per command, and a table of contents at the top"
	time.Sleep(500 * time.Millisecond)
	must(t, tm.Owner.API("POST", base+"/api/sessions/answers", teamsessions.AnswerRequest{Device: dev, Session: ss.ID, Since: ss.Since, Answer: "text", Text: longReply}, &a))
	if st := waitAnswer(t, tm, a.ID); st.State != teamsessions.StateAnswered {
		t.Fatalf("the reply: %+v\n%s", st, strings.Join(p.Screen().Lines, "\n"))
	}
	if !srv.WaitMain(n+2, 45*time.Second) {
		t.Fatalf("Claude Code never sent the reply on:\n%s", strings.Join(p.Screen().Lines, "\n"))
	}
	got := srv.MainRequests()[n+1].ToolResults()
	if len(got) == 0 || !strings.Contains(got[len(got)-1].Text, longReply) {
		t.Fatalf("the question's answer = %+v, want the reply", got)
	}
	t.Logf("a reply from the page answered Claude Code's question: %q", got[len(got)-1].Text)

	// On the wire: the real screens' menus, banner and folder never left
	// (the question's own line, with its options, is the matched line).
	wr.mu.Lock()
	defer wr.mu.Unlock()
	for _, b := range wr.bodies {
		for _, leak := range []string{e.Work, e.Home, "Yes, and", "Type something", "Claude Code v", "Esc to cancel", "Choose Markdown"} {
			if strings.Contains(b, leak) {
				t.Fatalf("the desktop sent %q: %s", leak, b)
			}
		}
	}
}

func newHTTP(w *wire) *http.Client { return &http.Client{Transport: w, Timeout: 30 * time.Second} }

// waitWaiting waits for alice's page to list a prompt newer than after
// with at least choices choices.
func waitWaiting(t *testing.T, tm *teamtest.Team, after int64, choices int) (teamsessions.Session, string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var sh teamsessions.Shared
		if tm.Owner.API("GET", tm.LB.URL+"/api/sessions", nil, &sh) == nil {
			for _, d := range sh.Devices {
				i := slices.IndexFunc(d.Sessions, func(s teamsessions.Session) bool {
					return s.State == teamsessions.NeedsYou && s.Since > after && s.Choices >= choices
				})
				if i >= 0 && d.Answers {
					return d.Sessions[i], d.ID
				}
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the prompt never reached the page")
	return teamsessions.Session{}, ""
}

func waitAnswer(t *testing.T, tm *teamtest.Team, id string) teamsessions.Answer {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var a teamsessions.Answer
		if tm.Owner.API("GET", tm.LB.URL+"/api/sessions/answers/"+id, nil, &a) == nil && a.State != teamsessions.StatePending && a.State != teamsessions.StateClaimed {
			return a
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("answer %s never came back", id)
	return teamsessions.Answer{}
}

func waitState(t *testing.T, w *panestate.Watcher, id, state string) time.Time {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		if st, _ := w.State(id); st.State == state {
			return time.Now()
		}
		time.Sleep(10 * time.Millisecond)
	}
	st, _ := w.State(id)
	t.Fatalf("pane never %s: %+v", state, st)
	return time.Time{}
}
