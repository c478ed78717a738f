package panestate

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/panewait"
)

// memSpecs is an in-memory terminal.SpecStore (the app's is SQLite).
type memSpecs struct {
	mu    sync.Mutex
	specs map[string]terminal.Spec
}

func (s *memSpecs) SavePane(sp terminal.Spec) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.specs == nil {
		s.specs = map[string]terminal.Spec{}
	}
	s.specs[sp.ID] = sp
	return nil
}

func (s *memSpecs) DeletePane(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.specs, id)
	return nil
}

func (s *memSpecs) LoadPanes() ([]terminal.Spec, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []terminal.Spec
	for _, sp := range s.specs {
		out = append(out, sp)
	}
	return out, nil
}

func (s *memSpecs) get(id string) terminal.Spec {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.specs[id]
}

// Live: a pane started as the real `claude` talks with the fake model; the
// app quits and starts again; the restored pane shows the same
// conversation, and the next message goes to the model with the earlier
// turn in it — not a new empty session. The pane still reads `claude`.
func TestLiveClaudePaneResumesItsConversationAfterARestart(t *testing.T) {
	liveClaudeResume(t, "--permission-mode", "default")
}

// With the user's own --settings the app adds no hooks; the conversation
// is found from Claude's transcript instead.
func TestLiveClaudeWithOwnSettingsResumesItsConversation(t *testing.T) {
	liveClaudeResume(t, "--permission-mode", "default", "--settings", `{"theme":"dark"}`)
}

func liveClaudeResume(t *testing.T, args ...string) {
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL)
	exe, _ := os.Executable()
	specs := &memSpecs{}
	r := newRig(t, Config{Exe: exe})
	r.mgr.SetStore(specs)
	srv.Push(fakemodel.Text("Noted: osf-kiwi-7."), fakemodel.Text("You asked me to remember osf-kiwi-7."))
	argv := e.Argv(args...)
	info, err := r.mgr.Create(terminal.Options{Dir: e.Work, Argv: argv, Env: e.Env, Cols: 120, Rows: 32})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	panewait.Screen(t, p, regexp.MustCompile(`\? for shortcuts`))
	panewait.TypeLine(t, p, "Remember the word osf-kiwi-7")
	panewait.Screen(t, p, regexp.MustCompile(`Noted: osf-kiwi-7`))
	var sess terminal.Session
	for end := time.Now().Add(liveWait); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if sess = specs.get(info.ID).Session; sess.ID != "" {
			break
		}
	}
	if sess.ID == "" {
		t.Fatalf("the pane never remembered Claude's session: %+v", specs.get(info.ID))
	}
	// Claude writes the transcript as the turn goes; a person reads the
	// answer before quitting.
	for end := time.Now().Add(liveWait); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(sess.File); strings.Contains(string(b), "Noted: osf-kiwi-7") {
			break
		}
	}
	// Quit: every pane ends, the remembered ones stay.
	r.mgr.CloseAll()
	r.w.Close()

	r2 := newRig(t, Config{Exe: exe})
	r2.mgr.SetStore(specs)
	if err := r2.mgr.Restore(e.Env); err != nil {
		t.Fatal(err)
	}
	list := r2.mgr.List()
	if len(list) != 1 || list[0].ID != info.ID {
		t.Fatalf("restored %+v, want pane %s", list, info.ID)
	}
	if !reflect.DeepEqual(list[0].Argv, argv) || !strings.Contains(list[0].Resumed, sess.ID) {
		t.Fatalf("restored pane argv %q resumed %q: want the pane's own command, resuming %s", list[0].Argv, list[0].Resumed, sess.ID)
	}
	p2, _ := r2.mgr.Get(info.ID)
	panewait.Screen(t, p2, regexp.MustCompile(`Remember the word osf-kiwi-7`))
	panewait.Screen(t, p2, regexp.MustCompile(`\? for shortcuts`))
	panewait.TypeLine(t, p2, "What did I ask you to remember?")
	panewait.Screen(t, p2, regexp.MustCompile(`You asked me to remember osf-kiwi-7`))
	main := srv.MainRequests()
	if last := main[len(main)-1]; !strings.Contains(string(last.Body), "Remember the word osf-kiwi-7") {
		t.Fatalf("the question after the restart reached the model without the earlier turn: %s", last.Summary())
	}
	if st, _ := r2.w.State(info.ID); st.Agent != "claude" || st.AgentName != "Claude Code" {
		t.Errorf("restored pane agent = %q (%q), want claude (Claude Code)", st.Agent, st.AgentName)
	}
}

// Live: the same for a pane started as the real `codex`, whose conversation
// is known from the rollout file it writes for the pane's folder: kept open
// by the pane's own codex with --no-daemon, by Codex's detached app-server
// daemon without it (what a person runs).
func TestLiveCodexPaneResumesItsConversationAfterARestart(t *testing.T) {
	liveCodexResume(t, "--no-daemon", "-s", "read-only")
}

func TestLiveCodexDaemonPaneResumesItsConversationAfterARestart(t *testing.T) {
	liveCodexResume(t, "-s", "read-only")
}

func liveCodexResume(t *testing.T, args ...string) {
	srv := fakemodel.Start(t)
	e := agentenv.Codex(t, srv.URL)
	specs := &memSpecs{}
	r := newRig(t, Config{})
	r.mgr.SetStore(specs)
	srv.Push(fakemodel.Text("Noted: osf-kiwi-7."), fakemodel.Text("You asked me to remember osf-kiwi-7."))
	argv := e.Argv(args...)
	info, err := r.mgr.Create(terminal.Options{Dir: e.Work, Argv: argv, Env: e.Env, Cols: 120, Rows: 32})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	panewait.Screen(t, p, regexp.MustCompile(`\? for shortcuts`))
	panewait.TypeLine(t, p, "Remember the word osf-kiwi-7")
	panewait.Screen(t, p, regexp.MustCompile(`Noted: osf-kiwi-7`))
	var sess terminal.Session
	for end := time.Now().Add(liveWait); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if sess = specs.get(info.ID).Session; sess.ID != "" {
			break
		}
	}
	if sess.ID == "" {
		t.Fatalf("the pane never remembered Codex's session: %+v", specs.get(info.ID))
	}
	r.mgr.CloseAll()
	r.w.Close()
	// Quitting ends every codex the app started, its daemon included.
	if left := codexDaemons(e); len(left) > 0 {
		t.Fatalf("Codex daemons still running after the app quit: %v", left)
	}

	r2 := newRig(t, Config{})
	r2.mgr.SetStore(specs)
	if err := r2.mgr.Restore(e.Env); err != nil {
		t.Fatal(err)
	}
	list := r2.mgr.List()
	if len(list) != 1 || !reflect.DeepEqual(list[0].Argv, argv) || !strings.Contains(list[0].Resumed, sess.ID) {
		t.Fatalf("restored %+v, want pane %s running %q, resuming %s", list, info.ID, argv, sess.ID)
	}
	p2, _ := r2.mgr.Get(info.ID)
	panewait.Screen(t, p2, regexp.MustCompile(`Remember the word osf-kiwi-7`))
	panewait.TypeLine(t, p2, "What did I ask you to remember?")
	panewait.Screen(t, p2, regexp.MustCompile(`You asked me to remember osf-kiwi-7`))
	main := srv.MainRequests()
	if last := main[len(main)-1]; !strings.Contains(string(last.Body), "Remember the word osf-kiwi-7") {
		t.Fatalf("the question after the restart reached the model without the earlier turn: %s", last.Summary())
	}
}

// codexDaemons lists e's live Codex app-server daemons (and updaters).
func codexDaemons(e *agentenv.Env) []int {
	var out []int
	for _, pid := range e.Processes() {
		if isCodexDaemon(procArgv(pid)) {
			out = append(out, pid)
		}
	}
	return out
}

// Live: two codex panes in one folder share Codex's daemon; each remembers
// its own conversation (the one whose first message it shows), never the
// other's. The daemon the first pane's codex started stays while the
// second pane's codex uses it, and ends with the last of them.
func TestLiveCodexPanesInOneFolderKeepTheirOwnConversations(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Codex(t, srv.URL)
	specs := &memSpecs{}
	r := newRig(t, Config{})
	r.mgr.SetStore(specs)
	argv := e.Argv("-s", "read-only")
	var panes []*terminal.Pane
	for range 2 {
		info, err := r.mgr.Create(terminal.Options{Dir: e.Work, Argv: argv, Env: e.Env, Cols: 120, Rows: 32})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := r.mgr.Get(info.ID)
		panewait.Screen(t, p, regexp.MustCompile(`\? for shortcuts`))
		panes = append(panes, p)
	}
	// The second pane speaks first: its conversation is the older one.
	for i, word := range []string{"osf-pear-2", "osf-fig-1"} {
		p := panes[1-i]
		srv.Push(fakemodel.Text("Noted: " + word + "."))
		panewait.TypeLine(t, p, "Remember the word "+word)
		panewait.Screen(t, p, regexp.MustCompile(`Noted: `+word))
	}
	want := map[string]string{panes[0].ID(): "osf-fig-1", panes[1].ID(): "osf-pear-2"}
	seen := map[string]string{}
	for id, word := range want {
		var sess terminal.Session
		for end := time.Now().Add(liveWait); time.Now().Before(end) && sess.ID == ""; time.Sleep(50 * time.Millisecond) {
			sess = specs.get(id).Session
		}
		ri, ok := readRollout(sess.File)
		if !ok || ri.First != "Remember the word "+word {
			t.Fatalf("pane %s remembered %+v (first message %q), want the conversation about %s", id, sess, ri.First, word)
		}
		if other, dup := seen[sess.ID]; dup {
			t.Fatalf("panes %s and %s both remembered %s", other, id, sess.ID)
		}
		seen[sess.ID] = id
	}
	if len(codexDaemons(e)) == 0 {
		t.Fatal("no Codex daemon running: the panes did not run Codex as a person does")
	}
	r.mgr.Close(panes[0].ID())
	r.w.daemons.reap() // returns after a whole pass that knows the first pane closed
	if len(codexDaemons(e)) == 0 {
		t.Fatal("closing the first pane ended the Codex daemon the second pane's codex still uses")
	}
	panewait.Screen(t, panes[1], regexp.MustCompile(`\? for shortcuts`))
	r.mgr.Close(panes[1].ID())
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end) && len(codexDaemons(e)) > 0; {
		time.Sleep(50 * time.Millisecond)
	}
	if left := codexDaemons(e); len(left) > 0 {
		t.Fatalf("Codex daemons still running after both panes closed: %v", left)
	}
}
