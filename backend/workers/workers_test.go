package workers

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/approvals"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/tools"
)

type recorder struct {
	mu  sync.Mutex
	got []string
	req []tools.ApprovalRequest
}

func (r *recorder) Emit(name string, payload any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, name)
	if q, ok := payload.(tools.ApprovalRequest); ok {
		r.req = append(r.req, q)
	}
}

func (r *recorder) events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

type memory struct{}

func (memory) MemorySearch(_ context.Context, ws, q string, _ int) ([]tools.MemoryHit, error) {
	return []tools.MemoryHit{{Kind: "note", ID: "n1", Title: "in " + ws, Snippet: q}}, nil
}

type rig struct {
	w    *Workers
	ev   *recorder
	term *terminal.Manager
	home string
}

// newRig builds the workers over a temp database, a real terminal manager
// and a fake claude on a PATH of its own (nothing of this machine's).
func newRig(t *testing.T) *rig {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	home := filepath.Join(dir, "home")
	for _, d := range []string{bin, home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// The Sign in terminal runs claude with no arguments: print what the
	// pane got, including whether the API key reached it.
	script := "#!/bin/sh\necho \"signin argv=[$*] key=[${ANTHROPIC_API_KEY}]\"\nexec sleep 30\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	term := terminal.NewManager(nil)
	t.Cleanup(term.CloseAll)
	ev := &recorder{}
	path := bin + ":/usr/bin:/bin"
	w, err := Open(context.Background(), Options{DB: db, Emitter: ev, Memory: memory{}, Terminal: term, DataDir: dir,
		Env: agentcli.Env{Home: home, Path: path, Environ: []string{"PATH=" + path, "HOME=" + home, "ANTHROPIC_API_KEY=sk-secret"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return &rig{w: w, ev: ev, term: term, home: home}
}

func TestOneExecutorWithTheAppTools(t *testing.T) {
	r := newRig(t)
	var names []string
	for _, m := range r.w.Executor.Tools() {
		names = append(names, m.Name)
	}
	for _, want := range []string{"memory_search", "todo_list", "code_search", "extract_content", "runtime_list", "runtime_read", "runtime_send", "runtime_answer"} {
		if !slices.Contains(names, want) {
			t.Errorf("executor lacks %s (has %v)", want, names)
		}
	}
	for _, never := range []string{"read_file", "write_file", "execute_command", "web_search", "transcribe"} {
		if slices.Contains(names, never) {
			t.Errorf("executor offers %s, which is unconfigured or never on the bridge", never)
		}
	}
	res, err := r.w.Executor.Execute(context.Background(), tools.Call{Tool: "memory_search", Workspace: "default",
		Args: json.RawMessage(`{"query":"launch"}`), Source: "test"})
	if err != nil || res.IsError || !strings.Contains(res.Text, "launch") {
		t.Fatalf("memory_search = %+v, %v", res, err)
	}
	es, err := r.w.Audit.List(context.Background(), tools.AuditQuery{Source: "test"})
	if err != nil || len(es) != 1 || es[0].Tool != "memory_search" || es[0].Decision != tools.DecisionRan {
		t.Fatalf("audit = %+v, %v", es, err)
	}
}

// Typing into a pane from a watched run asks the window: the request is
// emitted and listed with its arguments, the user's Decline reaches the
// model as a tool error, nothing is typed, and the prompt is withdrawn.
func TestApprovalRequestsReachTheWindow(t *testing.T) {
	r := newRig(t)
	pane, err := r.term.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"/bin/cat"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		approve bool
		typed   bool
	}{
		{"declined", false, false},
		{"approved", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			marker := "typed-" + c.name
			args, _ := json.Marshal(map[string]any{"id": pane.ID, "text": marker})
			done := make(chan tools.Result, 1)
			go func() {
				res, err := r.w.Executor.Execute(context.Background(), tools.Call{Tool: "runtime_send", Args: args,
					Watched: true, Workspace: "default", Channel: Channel, Source: "bridge:run1"})
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			var req tools.ApprovalRequest
			deadline := time.Now().Add(5 * time.Second)
			for len(r.w.ApprovalsBinding.Pending()) == 0 {
				if time.Now().After(deadline) {
					t.Fatal("no approval request was raised")
				}
				time.Sleep(5 * time.Millisecond)
			}
			req = r.w.ApprovalsBinding.Pending()[0]
			if req.Tool != "runtime_send" || !strings.Contains(string(req.Args), marker) {
				t.Fatalf("request = %+v", req)
			}
			if err := r.w.ApprovalsBinding.Resolve(req.ID, c.approve); err != nil {
				t.Fatal(err)
			}
			res := <-done
			if res.IsError == c.approve {
				t.Fatalf("result = %+v", res)
			}
			if err := r.w.ApprovalsBinding.Resolve(req.ID, true); err == nil || !strings.Contains(err.Error(), "no longer waiting") {
				t.Fatalf("second answer = %v", err)
			}
			p, _ := r.term.Get(pane.ID)
			time.Sleep(100 * time.Millisecond) // let the echo reach the screen
			shown := strings.Contains(strings.Join(p.Screen().Lines, "\n"), marker)
			if shown != c.typed {
				t.Fatalf("marker on screen = %v, want %v", shown, c.typed)
			}
		})
	}
	ev := r.ev.events()
	if n := count(ev, approvals.EventRequest); n != 2 {
		t.Errorf("%s emitted %d times, want 2 (events %v)", approvals.EventRequest, n, ev)
	}
	if n := count(ev, approvals.EventDone); n != 2 {
		t.Errorf("%s emitted %d times, want 2 (events %v)", approvals.EventDone, n, ev)
	}
}

// Sign in opens a Terminal pane running the CLI with the scrubbed
// environment, and returns Claude's hint.
func TestSignInOpensATerminalPane(t *testing.T) {
	r := newRig(t)
	got, err := r.w.RolesBinding.SignIn("claude")
	if err != nil {
		t.Fatal(err)
	}
	if got.Hint != agentcli.ClaudeSignInHint || got.PaneID == "" {
		t.Fatalf("sign in = %+v", got)
	}
	p, err := r.term.Get(got.PaneID)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		screen := strings.Join(p.Screen().Lines, "\n")
		if strings.Contains(screen, "signin argv=[] key=[]") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pane shows:\n%s", screen)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := r.w.RolesBinding.SignIn("gemini"); err == nil || !strings.Contains(err.Error(), "use claude or codex") {
		t.Fatalf("unknown CLI = %v", err)
	}
	if _, err := r.w.RolesBinding.SignIn("codex"); err == nil {
		t.Fatal("codex is not installed here, Sign in must say so")
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}
