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
	waitScreen(t, p, regexp.MustCompile(`\? for shortcuts`))
	typeLine(t, p, "Remember the word osf-kiwi-7")
	waitScreen(t, p, regexp.MustCompile(`Noted: osf-kiwi-7`))
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
	waitScreen(t, p2, regexp.MustCompile(`Remember the word osf-kiwi-7`))
	waitScreen(t, p2, regexp.MustCompile(`\? for shortcuts`))
	typeLine(t, p2, "What did I ask you to remember?")
	waitScreen(t, p2, regexp.MustCompile(`You asked me to remember osf-kiwi-7`))
	main := srv.MainRequests()
	if last := main[len(main)-1]; !strings.Contains(string(last.Body), "Remember the word osf-kiwi-7") {
		t.Fatalf("the question after the restart reached the model without the earlier turn: %s", last.Summary())
	}
	if st, _ := r2.w.State(info.ID); st.Agent != "claude" || st.AgentName != "Claude Code" {
		t.Errorf("restored pane agent = %q (%q), want claude (Claude Code)", st.Agent, st.AgentName)
	}
}

// Live: the same for a pane started as the real `codex`, whose conversation
// is known from the rollout file it writes for the pane's folder.
func TestLiveCodexPaneResumesItsConversationAfterARestart(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Codex(t, srv.URL)
	specs := &memSpecs{}
	r := newRig(t, Config{})
	r.mgr.SetStore(specs)
	srv.Push(fakemodel.Text("Noted: osf-kiwi-7."), fakemodel.Text("You asked me to remember osf-kiwi-7."))
	argv := e.Argv("--no-daemon", "-s", "read-only")
	info, err := r.mgr.Create(terminal.Options{Dir: e.Work, Argv: argv, Env: e.Env, Cols: 120, Rows: 32})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	waitScreen(t, p, regexp.MustCompile(`\? for shortcuts`))
	typeLine(t, p, "Remember the word osf-kiwi-7")
	waitScreen(t, p, regexp.MustCompile(`Noted: osf-kiwi-7`))
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
	waitScreen(t, p2, regexp.MustCompile(`Remember the word osf-kiwi-7`))
	typeLine(t, p2, "What did I ask you to remember?")
	waitScreen(t, p2, regexp.MustCompile(`You asked me to remember osf-kiwi-7`))
	main := srv.MainRequests()
	if last := main[len(main)-1]; !strings.Contains(string(last.Body), "Remember the word osf-kiwi-7") {
		t.Fatalf("the question after the restart reached the model without the earlier turn: %s", last.Summary())
	}
}
