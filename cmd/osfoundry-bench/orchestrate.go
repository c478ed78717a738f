package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// Orchestration's own costs, apart from the CLIs': what a fleet adds to
// each child's start (recording the run, its job, its slot) and how soon
// a child's change reaches its Team card on the board.
func init() {
	registerBench(&bench{
		name: "orchestrate",
		help: "fleet start overhead per child on top of the CLI's own start, and board update latency of a child's state change",
		run:  benchOrchestrate,
	})
}

// benchClaude is a claude that answers at once, or waits while the hold
// file exists (a child that keeps running).
const benchClaude = `#!/bin/sh
echo '{"type":"system","subtype":"init","session_id":"s"}'
while [ -e "$FAKE_DIR/hold" ]; do sleep 0.01; done
echo '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s","usage":{"input_tokens":1,"output_tokens":1}}'
`

func benchOrchestrate(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench orchestrate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rounds := fs.Int("rounds", 5, "fleets (and direct runs) per measurement")
	children := fs.Int("children", 4, "children per fleet")
	changes := fs.Int("changes", 20, "state changes timed on the board")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry-bench orchestrate:", err)
		return 2
	}
	b, err := newOrchBench()
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry-bench orchestrate:", err)
		return 1
	}
	defer b.close()
	direct, fleet, err := b.startOverhead(*rounds, *children)
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry-bench orchestrate:", err)
		return 1
	}
	lat, err := b.boardLatency(*changes)
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry-bench orchestrate:", err)
		return 1
	}
	far, err := b.otherProcessLatency(*changes / 2)
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry-bench orchestrate:", err)
		return 1
	}
	over := fleet - direct
	fmt.Fprintf(env.Stdout, "Fleets of %d children one at a time, %d rounds (medians); a CLI that answers at once, so its own start is the direct run's\n", *children, *rounds)
	printTable(env, []string{"measure", "ours", "target"}, [][]string{
		{"CLI run started directly (agentcli), per run", ms(direct), "—"},
		{"the same run as a fleet child, per child", ms(fleet), "—"},
		{"fleet start overhead per child", ms(over), "≤ 50 ms"},
		{fmt.Sprintf("board: a child's state change → its Team card (p50 of %d)", len(lat)), ms(lat[len(lat)/2]), "≤ 100 ms"},
		{"board: the same, p95", ms(lat[len(lat)*95/100]), "≤ 100 ms"},
		{fmt.Sprintf("board: a change of an osfoundry run job (another process) → its Team card (p50 of %d)", len(far)), ms(far[len(far)/2]), "≤ 100 ms"},
		{"board: the same, p95", ms(far[len(far)*95/100]), "≤ 100 ms"},
	})
	return 0
}

type orchBench struct {
	tmp    string
	db     *sql.DB
	runner *agentcli.Runner
	svc    *chat.Service
	m      *orchestrate.Manager
	folder string

	mu      sync.Mutex
	pending []tools.ApprovalRequest
}

func newOrchBench() (*orchBench, error) {
	tmp, err := os.MkdirTemp("", "osfoundry-bench-orch-")
	if err != nil {
		return nil, err
	}
	b := &orchBench{tmp: tmp, folder: filepath.Join(tmp, "work")}
	bin := filepath.Join(tmp, "bin")
	for _, d := range []string{bin, b.folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(benchClaude), 0o755); err != nil {
		return nil, err
	}
	if b.db, err = store.Open(filepath.Join(tmp, store.FileName)); err != nil {
		return nil, err
	}
	b.runner = agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: tmp, Path: bin,
		Environ: []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + tmp, "FAKE_DIR=" + tmp}}})
	ctx := context.Background()
	b.svc, err = chat.New(ctx, chat.Options{DB: b.db, Runner: b.runner, Pending: func() []tools.ApprovalRequest {
		b.mu.Lock()
		defer b.mu.Unlock()
		return append([]tools.ApprovalRequest(nil), b.pending...)
	}})
	if err != nil {
		return nil, err
	}
	if _, err := b.svc.Roles().SetRoleModel(ctx, "Titling", agentcli.ModelClaudeAgent); err != nil {
		return nil, err
	}
	if _, err := b.svc.Roles().AddFolder(ctx, b.folder); err != nil {
		return nil, err
	}
	// Jobs kept in the database, as in the app: the board reads them back.
	if b.m, err = orchestrate.Open(ctx, b.svc.Pipeline(), b.svc.Runs(), b.db); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *orchBench) close() {
	if b.m != nil {
		b.m.Close()
	}
	if b.svc != nil {
		b.svc.Close()
	}
	if b.db != nil {
		b.db.Close()
	}
	os.RemoveAll(b.tmp)
}

// startOverhead times the same CLI run started directly and as fleet
// children one at a time (concurrency 1, so no child waits on another's
// CPU), and returns the medians per run.
func (b *orchBench) startOverhead(rounds, children int) (direct, fleet time.Duration, err error) {
	ctx := context.Background()
	p := b.m.ForPerson(orchestrate.OwnerCLI)
	var ds, fs []time.Duration
	for r := 0; r < rounds; r++ {
		t0 := time.Now()
		for i := 0; i < children; i++ {
			if _, err := b.runner.Run(ctx, agentcli.Job{Model: agentcli.ModelClaudeAgent, Role: "Titling",
				Turns: []agentcli.Turn{{Role: "user", Text: "title"}}, Folder: b.folder}); err != nil {
				return 0, 0, fmt.Errorf("direct run: %w", err)
			}
		}
		ds = append(ds, time.Since(t0)/time.Duration(children))
		req := orchestrate.FleetRequest{Limits: orchestrate.Limits{Concurrency: 1}}
		for i := 0; i < children; i++ {
			req.Tasks = append(req.Tasks, orchestrate.ChildSpec{Role: "Titling", Task: "title"})
		}
		t0 = time.Now()
		st, err := p.StartFleet(ctx, req)
		if err != nil {
			return 0, 0, err
		}
		if st, err = p.Wait(ctx, st.ID); err != nil {
			return 0, 0, err
		}
		if st.State != orchestrate.StateDone {
			return 0, 0, fmt.Errorf("the fleet ended %s: %s", st.State, st.Error)
		}
		fs = append(fs, time.Since(t0)/time.Duration(children))
	}
	return median(ds), median(fs), nil
}

// otherProcessLatency times how soon the window's board shows a change of
// a job `osfoundry run` runs: a second Manager with a pipeline of its own
// (as the command line has) keeps its job in the same database, and only
// the database connects the two. Each round starts a fleet whose child is
// held (timed until the window's Team card is Running), then lets the
// child end (timed until the card is Done).
func (b *orchBench) otherProcessLatency(rounds int) ([]time.Duration, error) {
	ctx := context.Background()
	db2, err := store.Open(filepath.Join(b.tmp, "cli", store.FileName))
	if err != nil {
		return nil, err
	}
	defer db2.Close()
	svc2, err := chat.New(ctx, chat.Options{DB: db2, Runner: b.runner})
	if err != nil {
		return nil, err
	}
	defer svc2.Close()
	if _, err := svc2.Roles().SetRoleModel(ctx, "Titling", agentcli.ModelClaudeAgent); err != nil {
		return nil, err
	}
	if _, err := svc2.Roles().AddFolder(ctx, b.folder); err != nil {
		return nil, err
	}
	far, err := orchestrate.Open(ctx, svc2.Pipeline(), svc2.Runs(), b.db)
	if err != nil {
		return nil, err
	}
	defer far.Close()
	em := &cardEmitter{cards: make(chan board.Card, 64)}
	bd := board.New(filepath.Join(b.tmp, "knowledge"), em)
	bd.Add("orchestrate", orchestrate.NewBoardSource(b.m, nil))
	b.m.OnChange(bd.Changed)
	hold := filepath.Join(b.tmp, "hold")
	var out []time.Duration
	wait := func(id, want string) error {
		for {
			select {
			case c := <-em.cards:
				if c.ID == id && c.State == want {
					return nil
				}
			case <-time.After(10 * time.Second):
				return fmt.Errorf("the Team card of the other process's job never showed %s", want)
			}
		}
	}
	for range max(rounds, 1) {
		if err := os.WriteFile(hold, nil, 0o600); err != nil {
			return nil, err
		}
		t0 := time.Now()
		st, err := far.ForPerson(orchestrate.OwnerCLI).StartFleet(ctx, orchestrate.FleetRequest{Tasks: []orchestrate.ChildSpec{{Role: "Titling", Task: "title"}}})
		if err != nil {
			return nil, err
		}
		em.setJob(st.ID)
		if err := wait(st.ID, board.Running); err != nil {
			return nil, err
		}
		out = append(out, time.Since(t0))
		t0 = time.Now()
		os.Remove(hold)
		if err := wait(st.ID, board.Done); err != nil {
			return nil, err
		}
		out = append(out, time.Since(t0))
	}
	slices.Sort(out)
	return out, nil
}

// cardEmitter hands the Team card of one job to the waiting bench.
type cardEmitter struct {
	mu    sync.Mutex
	job   string
	cards chan board.Card
}

// setJob switches to another job's card.
func (e *cardEmitter) setJob(id string) {
	e.mu.Lock()
	e.job = id
	e.mu.Unlock()
}

func (e *cardEmitter) Emit(name string, payload any) {
	cards, ok := payload.([]board.Card)
	if !ok || name != board.EventChanged {
		return
	}
	e.mu.Lock()
	job := e.job
	e.mu.Unlock()
	for _, c := range cards {
		if c.ID == job {
			select {
			case e.cards <- c:
			default:
			}
		}
	}
}

// boardLatency keeps one child running and flips it between waiting for
// an approval and working, timing each flip from the approval queue's
// change to the board event whose Team card shows it.
func (b *orchBench) boardLatency(changes int) ([]time.Duration, error) {
	hold := filepath.Join(b.tmp, "hold")
	if err := os.WriteFile(hold, nil, 0o600); err != nil {
		return nil, err
	}
	defer os.Remove(hold)
	ctx := context.Background()
	p := b.m.ForPerson(orchestrate.OwnerWindow)
	st, err := p.StartFleet(ctx, orchestrate.FleetRequest{Tasks: []orchestrate.ChildSpec{{Role: "Titling", Task: "title"}}})
	if err != nil {
		return nil, err
	}
	defer p.CancelJob(st.ID) //nolint:errcheck // it ends with the bench either way
	var run string
	for deadline := time.Now().Add(30 * time.Second); run == ""; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the child never started")
		}
		s, _ := p.Get(st.ID)
		run = s.Steps[0].RunID
	}
	em := &cardEmitter{job: st.ID, cards: make(chan board.Card, 64)}
	bd := board.New(filepath.Join(b.tmp, "knowledge"), em)
	teams := orchestrate.NewBoardSource(b.m, b.svc.RunStates)
	pipe := chat.NewBoardSource(b.svc, teams.ChildRuns)
	pipe.Watch(bd.Changed)
	bd.Add("pipeline", pipe)
	bd.Add("orchestrate", teams)
	b.m.OnChange(bd.Changed)
	var out []time.Duration
	for i := 0; i < changes; i++ {
		want := board.NeedsYou
		b.mu.Lock()
		b.pending = []tools.ApprovalRequest{{ID: "a", Tool: "runtime_send", Source: "bridge:" + run}}
		if i%2 == 1 {
			want, b.pending = board.Running, nil
		}
		b.mu.Unlock()
		// Drain events of the previous flip before timing this one.
		for len(em.cards) > 0 {
			<-em.cards
		}
		t0 := time.Now()
		b.svc.ApprovalsChanged()
		for got := false; !got; {
			select {
			case c := <-em.cards:
				got = c.State == want
			case <-time.After(10 * time.Second):
				return nil, fmt.Errorf("the Team card never showed %s", want)
			}
		}
		out = append(out, time.Since(t0))
	}
	slices.Sort(out)
	return out, nil
}
