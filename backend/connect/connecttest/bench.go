package connecttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// BenchOptions size `osfoundry-bench connect`.
type BenchOptions struct {
	Dir         string        // scratch folder for the database
	Discoveries int           // discovery runs
	Checks      int           // access checks (half allowed, half denied)
	Clients     int           // concurrent clients for throughput
	Duration    time.Duration // throughput window
}

// BenchResult holds the measured figures.
type BenchResult struct {
	Discovery               []time.Duration // whole discovery, per run
	Steps                   map[string][]time.Duration
	StepOrder               []string
	CheckAllowed, CheckDeny []time.Duration
	Verify                  []time.Duration
	Calls                   int
	CallLatency             []time.Duration
	Window                  time.Duration
	Clients                 int
}

// Bench runs the endpoint on loopback against the real notes store in a
// scratch database and measures discovery, the per-call access check and
// authorized tools/call throughput.
func Bench(ctx context.Context, o BenchOptions) (*BenchResult, error) {
	db, err := store.Open(filepath.Join(o.Dir, "bench.db"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	svc, st, err := notesres.Open(ctx, db, filepath.Join(o.Dir, "knowledge"), nil)
	if err != nil {
		return nil, err
	}
	for _, f := range []func() error{
		func() error { _, err := st.CreateWorkspace(ctx, "ws-bench", "Bench"); return err },
		func() error { _, err := st.CreateProject(ctx, "ws-bench", "proj-a", "A"); return err },
		func() error { _, err := st.CreateProject(ctx, "ws-bench", "proj-b", "B"); return err },
		func() error {
			_, err := st.CreateNote(ctx, notes.NewNote{ID: "note-a1", Workspace: "ws-bench", Project: "proj-a", Title: "Q3 launch checklist", Text: "- ship"})
			return err
		},
		func() error {
			_, err := st.CreateNote(ctx, notes.NewNote{ID: "note-b1", Workspace: "ws-bench", Project: "proj-b", Title: "Budget", Text: "42"})
			return err
		},
	} {
		if err := f(); err != nil {
			return nil, fmt.Errorf("seeding bench data: %w", err)
		}
	}
	// The bench registers and authorizes as fast as it can from one address.
	srv, err := connect.NewServer(svc, connect.ServerConfig{RegisterPerMinute: -1, AuthorizePerMinute: -1})
	if err != nil {
		return nil, err
	}
	if err := srv.Start("127.0.0.1:0"); err != nil {
		return nil, err
	}
	defer srv.Close(context.Background())
	b := NewBrowser(srv.BaseURL())
	link, err := srv.SignInURL(ctx, connect.OwnerID, 0)
	if err != nil {
		return nil, err
	}
	if err := b.SignIn(link); err != nil {
		return nil, err
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}
	r := &BenchResult{Steps: map[string][]time.Duration{}, Clients: o.Clients}
	newClient := func() *Client {
		return &Client{HTTP: hc, Resource: srv.ResourceURL(), Browser: b, Redirect: "http://127.0.0.1:1/cb", Name: "bench"}
	}
	var clients []*Client
	for i := 0; i < max(o.Discoveries, o.Clients); i++ {
		c := newClient()
		// One warm-up registration is untimed inside Discover; the five
		// round trips are what a connecting host waits for.
		_, steps, err := c.Discover(ctx)
		if err != nil {
			return nil, fmt.Errorf("discovery run %d: %w", i+1, err)
		}
		if i < o.Discoveries {
			var total time.Duration
			for _, s := range steps {
				if !slices.Contains(r.StepOrder, s.Name) {
					r.StepOrder = append(r.StepOrder, s.Name)
				}
				r.Steps[s.Name] = append(r.Steps[s.Name], s.D)
				total += s.D
			}
			r.Discovery = append(r.Discovery, total)
		}
		clients = append(clients, c)
	}
	conns, err := svc.Connections(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range conns {
		if err := svc.AddProject(ctx, c.ID, "proj-a"); err != nil {
			return nil, err
		}
	}
	// Access check: the real queries (item location in the notes store,
	// then one query for connection, tool, project, invite and role).
	g, err := svc.VerifyToken(ctx, clients[0].token, srv.ResourceURL())
	if err != nil {
		return nil, err
	}
	allow, deny := json.RawMessage(`{"note_id":"note-a1"}`), json.RawMessage(`{"note_id":"note-b1"}`)
	for i := 0; i < o.Checks; i++ {
		args, dst := allow, &r.CheckAllowed
		if i%2 == 1 {
			args, dst = deny, &r.CheckDeny
		}
		t0 := time.Now()
		err := svc.CheckAccess(ctx, g, notes.ToolListNoteTabs, args)
		*dst = append(*dst, time.Since(t0))
		var d *connect.Denial
		if (i%2 == 0) != (err == nil) || (err != nil && !errors.As(err, &d)) {
			return nil, fmt.Errorf("access check %d gave %v", i, err)
		}
		t0 = time.Now()
		if _, err := svc.VerifyToken(ctx, clients[0].token, srv.ResourceURL()); err != nil {
			return nil, err
		}
		r.Verify = append(r.Verify, time.Since(t0))
	}
	// Throughput: Clients concurrent hosts, each with its own connection.
	var mu sync.Mutex
	var wg sync.WaitGroup
	var firstErr error
	deadline := time.Now().Add(o.Duration)
	start := time.Now()
	for _, c := range clients[:o.Clients] {
		wg.Add(1)
		go func(c *Client) {
			defer wg.Done()
			var lat []time.Duration
			for time.Now().Before(deadline) {
				t0 := time.Now()
				res, err := c.Call(ctx, notes.ToolListNoteTabs, map[string]any{"note_id": "note-a1"})
				if err == nil && (res.Status != 200 || res.IsError) {
					err = fmt.Errorf("tools/call: %d %s", res.Status, res.Text)
				}
				if err != nil {
					mu.Lock()
					firstErr = cmp(firstErr, err)
					mu.Unlock()
					return
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			r.CallLatency = append(r.CallLatency, lat...)
			mu.Unlock()
		}(c)
	}
	wg.Wait()
	r.Window = time.Since(start)
	r.Calls = len(r.CallLatency)
	if firstErr != nil {
		return nil, firstErr
	}
	return r, nil
}

func cmp(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Quantile returns the q-quantile (0..1) of ds.
func Quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q * float64(len(s)-1))
	return s[i]
}
