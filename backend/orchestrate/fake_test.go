package orchestrate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
)

// fakeRun is one run of the fake pipeline: it goes until the test ends it
// (finish) or it is cancelled.
type fakeRun struct {
	id   string
	t    pipeline.RoleTask
	done chan struct{}

	state, text, err string
	cancelled        bool
	cost             float64 // the CLI's reported cost at its end
}

// fake is a pipeline whose runs the test ends one by one, so orders and
// overlaps are decided by the test, not by timing.
type fake struct {
	mu        sync.Mutex
	runs      []*fakeRun
	byID      map[string]*fakeRun
	active    int
	maxActive int
	started   chan *fakeRun
	parents   map[string]chan struct{}
	origins   map[string]runs.Origin
	checkErr  error
	// auto, when set, ends each run at once with its answer.
	auto func(t pipeline.RoleTask) (answer string, ok bool)
}

func newFake() *fake {
	return &fake{byID: map[string]*fakeRun{}, started: make(chan *fakeRun, 64),
		parents: map[string]chan struct{}{}, origins: map[string]runs.Origin{}}
}

func (f *fake) StartRole(_ context.Context, t pipeline.RoleTask) (runs.Run, error) {
	f.mu.Lock()
	r := &fakeRun{id: fmt.Sprintf("run-%d", len(f.runs)+1), t: t, done: make(chan struct{}), state: runs.StateRunning}
	f.runs = append(f.runs, r)
	f.byID[r.id] = r
	f.active++
	f.maxActive = max(f.maxActive, f.active)
	auto := f.auto
	f.mu.Unlock()
	if auto != nil {
		a, ok := auto(t)
		f.finish(r, a, ok)
	}
	f.started <- r
	return runs.Run{ID: r.id, Role: t.Role, State: runs.StateRunning}, nil
}

func (f *fake) finish(r *fakeRun, answer string, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.state != runs.StateRunning {
		return
	}
	r.state, r.text = runs.StateDone, answer
	if !ok {
		r.state, r.err = runs.StateFailed, "the model failed"
	}
	f.active--
	close(r.done)
}

func (f *fake) CheckRoles(context.Context, string, ...string) error { return f.checkErr }

func (f *fake) WaitRun(ctx context.Context, id string) (runs.Run, error) {
	f.mu.Lock()
	r := f.byID[id]
	f.mu.Unlock()
	if r == nil {
		return runs.Run{}, errors.New("no run " + id)
	}
	select {
	case <-r.done:
	case <-ctx.Done():
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return runs.Run{ID: id, Role: r.t.Role, State: r.state, Text: r.text, Error: r.err, ReportedCostUSD: r.cost}, nil
}

func (f *fake) Done(id string) <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.parents[id]; ok {
		return c
	}
	return closedChan
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (f *fake) OriginOf(id string) (runs.Origin, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, ok := f.origins[id]
	return o, ok
}

func (f *fake) Cancel(id string) error {
	f.mu.Lock()
	r := f.byID[id]
	if r != nil {
		r.cancelled = true
	}
	f.mu.Unlock()
	if r == nil {
		return errors.New("no run " + id)
	}
	f.finish(r, "", false)
	return nil
}

// parent registers a running parent run of the given depth.
func (f *fake) parent(id string, depth int) chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := make(chan struct{})
	f.parents[id], f.origins[id] = c, runs.Origin{Depth: depth}
	return c
}

// next returns the next run started; the deadline only guards against a
// hung test, it asserts nothing about speed.
func (f *fake) next(t *testing.T) *fakeRun {
	t.Helper()
	select {
	case r := <-f.started:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no run started")
		return nil
	}
}

func (f *fake) count() (runs, active int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.runs), f.active
}

func wait(t *testing.T, m *Manager, owner, id string) Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := m.Wait(ctx, owner, id)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Ended() {
		t.Fatalf("job %s did not end: %+v", id, st)
	}
	return st
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// openFake opens a Manager whose roles and runs are both f.
func openFake(ctx context.Context, f *fake, db *sql.DB) (*Manager, error) { return Open(ctx, f, f, db) }
