package workers

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// liveOrch is the workers over the real Claude Code against the fake
// model, with a terminal pane for runtime_send (a tool that asks the
// person) and the Sessions board over the pipeline and the jobs, as the
// app wires them.
type liveOrch struct {
	w     *Workers
	srv   *fakemodel.Server
	b     *board.Board
	pane  string
	p     *orchestrate.Person
	owner string
}

func newLiveOrch(t *testing.T, turns ...fakemodel.Turn) *liveOrch {
	t.Helper()
	srv := fakemodel.Start(t, turns...)
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	term := terminal.NewManager(nil)
	t.Cleanup(term.CloseAll)
	w, err := Open(context.Background(), Options{DB: db, Memory: memory{}, Terminal: term, DataDir: t.TempDir(),
		Env: agentcli.Env{Home: e.Home, Environ: e.Env, Path: strings.TrimPrefix(e.Env[0], "PATH=")}})
	must(t, err)
	t.Cleanup(func() { w.Close() })
	ctx := context.Background()
	for _, role := range []string{"Worker", "Researcher", "Reviewer"} {
		_, err := w.Chat.Roles().SetRoleModel(ctx, role, agentcli.ModelClaudeAgent)
		must(t, err)
	}
	_, err = w.Chat.Roles().AddFolder(ctx, e.Work)
	must(t, err)
	pane, err := term.Create(terminal.Options{Dir: e.Work, Argv: []string{"/bin/cat"}})
	must(t, err)
	b := board.New(t.TempDir(), nil)
	chats, jobs := w.BoardSources()
	chats.Watch(b.Changed)
	b.Add("pipeline", chats)
	b.Add("orchestrate", jobs)
	return &liveOrch{w: w, srv: srv, b: b, pane: pane.ID, p: w.Orchestrator.ForPerson(orchestrate.OwnerWindow), owner: orchestrate.OwnerWindow}
}

// until polls cond with a generous deadline (it asserts no speed).
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(120 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (l *liveOrch) card(t *testing.T, id string) board.Card {
	t.Helper()
	for _, c := range l.b.Cards() {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no card for %s on the board", id)
	return board.Card{}
}

func (l *liveOrch) wait(t *testing.T, id string) orchestrate.Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	st, err := l.p.Wait(ctx, id)
	must(t, err)
	if !st.Ended() {
		t.Fatalf("job did not end: %+v", st)
	}
	return st
}

// A fleet of 3 on the real Claude Code where one child calls a tool that
// asks the person (runtime_send): its Team card is in Needs you while the
// other two finish, and once the person approves, the child goes on and
// the card ends Done. The children are not Agent cards of their own.
func TestLiveFleetChildWaitingForApprovalPutsTheTeamInNeedsYou(t *testing.T) {
	hold := make(chan struct{})
	search := fakemodel.ClaudeToolSearch(fakemodel.MCPName("osfoundry", "runtime_send"))
	search.Hold = hold // whoever takes it waits until the other two took theirs
	l := newLiveOrch(t, search, fakemodel.Text("answer two"), fakemodel.Text("answer three"))
	l.srv.Push(fakemodel.ClaudeMCP("osfoundry", "runtime_send", map[string]any{"id": l.pane, "text": "hello"}), fakemodel.Text("typed hello"))
	st, err := l.p.StartFleet(context.Background(), orchestrate.FleetRequest{Title: "Three tasks", Tasks: []orchestrate.ChildSpec{
		{Role: "Worker", Task: "task one"}, {Role: "Worker", Task: "task two"}, {Role: "Worker", Task: "task three"}}})
	must(t, err)
	until(t, "every child to ask the model", func() bool { return l.srv.Used() >= 3 })
	close(hold)
	until(t, "the approval request", func() bool { return len(l.w.ApprovalsBinding.Pending()) == 1 })
	req := l.w.ApprovalsBinding.Pending()[0]
	if req.Tool != "runtime_send" {
		t.Fatalf("approval = %+v", req)
	}
	until(t, "the two other children to finish", func() bool {
		s, _ := l.p.Get(st.ID)
		done := 0
		for _, c := range s.Steps {
			if c.State == orchestrate.StateDone {
				done++
			}
		}
		return done == 2
	})
	c := l.card(t, st.ID)
	if c.Kind != board.KindTeam || c.State != board.NeedsYou || c.Children != 3 || c.ChildrenDone != 2 || c.Why != "2 of 3 done · 1 needs you" || c.Title != "Three tasks" {
		t.Fatalf("team card = %+v", c)
	}
	s, _ := l.p.Get(st.ID)
	for _, step := range s.Steps {
		for _, other := range l.b.Cards() {
			if other.ID == step.RunID {
				t.Errorf("child run %s has a card of its own: %+v", step.RunID, other)
			}
		}
	}
	must(t, l.w.ApprovalsBinding.Resolve(req.ID, true))
	st = l.wait(t, st.ID)
	if st.State != orchestrate.StateDone {
		t.Fatalf("fleet = %+v", st)
	}
	answers := map[string]bool{}
	for _, s := range st.Steps {
		answers[s.Answer] = true
	}
	if !answers["answer two"] || !answers["answer three"] || !answers["typed hello"] {
		t.Errorf("answers = %v", answers)
	}
	if c := l.card(t, st.ID); c.State != board.Done || c.ChildrenDone != 3 {
		t.Errorf("team card at the end = %+v", c)
	}
}

// A loop of 3 iterations on the real Claude Code: each iteration's request
// carries the last iteration's result; the Loop card counts them.
func TestLiveLoopOfThreeSeesTheLastResult(t *testing.T) {
	l := newLiveOrch(t, fakemodel.Text("first pass: alpha"), fakemodel.Text("second pass: beta"), fakemodel.Text("third pass: gamma"))
	st, err := l.p.StartLoop(context.Background(), orchestrate.LoopRequest{Role: "Worker", Task: "improve the draft", Count: 3})
	must(t, err)
	st = l.wait(t, st.ID)
	if st.State != orchestrate.StateDone || len(st.Steps) != 3 || st.Answer != "third pass: gamma" {
		t.Fatalf("loop = %+v", st)
	}
	main := l.srv.MainRequests()
	if len(main) != 3 {
		t.Fatalf("%d main requests, want 3", len(main))
	}
	for i, want := range []string{"", "first pass: alpha", "second pass: beta"} {
		body := string(main[i].Body)
		if !strings.Contains(body, "improve the draft") || want != "" && !strings.Contains(body, want) {
			t.Errorf("iteration %d's request lacks %q", i+1, want)
		}
	}
	if strings.Contains(string(main[2].Body), "first pass: alpha") {
		t.Error("iteration 3 was given iteration 1's result rather than only the last")
	}
	if c := l.card(t, st.ID); c.Kind != board.KindLoop || c.State != board.Done || c.Children != 3 || c.ChildrenDone != 3 {
		t.Errorf("loop card = %+v", c)
	}
}

// Cancelling one child of a fleet on the real Claude Code stops that
// child's CLI; its siblings go on and finish.
func TestLiveCancelOneChildSiblingsContinue(t *testing.T) {
	holds := []chan struct{}{make(chan struct{}), make(chan struct{}), make(chan struct{})}
	var turns []fakemodel.Turn
	for i, h := range holds {
		turns = append(turns, fakemodel.Turn{Text: "sibling answer " + string(rune('A'+i)), Hold: h})
	}
	l := newLiveOrch(t, turns...)
	st, err := l.p.StartFleet(context.Background(), orchestrate.FleetRequest{Tasks: []orchestrate.ChildSpec{
		{Role: "Worker", Task: "one"}, {Role: "Worker", Task: "two"}, {Role: "Worker", Task: "three"}}})
	must(t, err)
	until(t, "every child to ask the model", func() bool { return l.srv.Used() >= 3 })
	st, err = l.p.CancelChild(st.ID, "2")
	must(t, err)
	if st.Steps[1].State != orchestrate.StateCancelled || st.Steps[0].State != orchestrate.StateRunning || st.Steps[2].State != orchestrate.StateRunning {
		t.Fatalf("after cancelling child 2: %+v", st.Steps)
	}
	run, err := l.w.Chat.GetRun(context.Background(), st.Steps[1].RunID)
	must(t, err)
	if run.State != runs.StateFailed {
		t.Errorf("the cancelled child's run is %s", run.State)
	}
	for _, h := range holds {
		close(h)
	}
	st = l.wait(t, st.ID)
	if st.State != orchestrate.StateDone || st.Steps[0].State != orchestrate.StateDone || st.Steps[2].State != orchestrate.StateDone ||
		!strings.HasPrefix(st.Steps[0].Answer, "sibling answer") || !strings.HasPrefix(st.Steps[2].Answer, "sibling answer") {
		b, _ := json.MarshalIndent(st, "", "  ")
		t.Fatalf("fleet = %s", b)
	}
	if st.Note != "1 of 3 runs cancelled by you" {
		t.Errorf("note = %q", st.Note)
	}
}

// The spend limit on the real Claude Code: the CLI reports what its run
// cost at API prices; once the children's total reaches the limit, the
// children not yet started never start and the job says which limit
// stopped it.
func TestLiveSpendLimitStopsTheFleet(t *testing.T) {
	l := newLiveOrch(t, fakemodel.Text("first answer"), fakemodel.Text("second answer"))
	st, err := l.p.StartFleet(context.Background(), orchestrate.FleetRequest{Tasks: []orchestrate.ChildSpec{
		{Role: "Worker", Task: "one"}, {Role: "Worker", Task: "two"}},
		Limits: orchestrate.Limits{MaxSpendUSD: 0.000001, Concurrency: 1}})
	must(t, err)
	st = l.wait(t, st.ID)
	if st.State != orchestrate.StateStopped || !strings.HasPrefix(st.Error, "stopped: spend limit $0.000001 reached (≈$0.") ||
		st.Steps[0].State != orchestrate.StateDone || st.Steps[0].CostUSD <= 0 || st.Steps[1].State != orchestrate.StateCancelled || st.Steps[1].RunID != "" {
		b, _ := json.MarshalIndent(st, "", "  ")
		t.Fatalf("fleet = %s", b)
	}
	if c := l.card(t, st.ID); c.State != board.Failed || c.Why != st.Error {
		t.Errorf("team card = %+v", c)
	}
}
