package panetools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/fixtures"
	"github.com/osfoundry/desktop/backend/tools"
	"github.com/osfoundry/desktop/rules"
)

func registry(t *testing.T) *detect.Registry {
	t.Helper()
	reg, _, err := detect.Load(rules.Files, "")
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// screenPane starts a real pane that prints a recorded screen and stays,
// its foreground program named claude (a link to sleep) as Claude Code's is.
func screenPane(t *testing.T, m *terminal.Manager, fixture string) string {
	t.Helper()
	dir, err := fixtures.Dir()
	if err != nil {
		t.Skip(err)
	}
	bin := filepath.Join(t.TempDir(), "claude")
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(sleep, bin); err != nil {
		t.Fatal(err)
	}
	info, err := m.Create(terminal.Options{Dir: t.TempDir(), Cols: 121, Rows: 40,
		Argv: []string{"/bin/sh", "-c", `cat "$0"; exec "$1" 60`, filepath.Join(dir, fixture), bin}})
	if err != nil {
		t.Fatal(err)
	}
	// The screen can be complete before sh has exec'd the program: wait
	// until claude holds the terminal, as it would in a real pane.
	pane, _ := m.Get(info.ID)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, name := pane.Foreground(); name == "claude" {
			return info.ID
		}
		if time.Now().After(deadline) {
			t.Fatal("the pane's foreground program never became claude")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitScreen(t *testing.T, p *Panes, id, want string) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		lines, _, err := p.Screen(id)
		if err == nil && strings.Contains(strings.Join(lines, "\n"), want) {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s never showed %q; screen:\n%s", id, want, strings.Join(lines, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The live-screen tools over real panes: the list and reads carry the state
// the rules give the screen now, runtime_send types into a working pane and
// is refused on a recorded Claude Code permission prompt.
func TestPanesThroughTheRuntimeTools(t *testing.T) {
	m := terminal.NewManager(nil)
	defer m.CloseAll()
	p, err := New(m, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	blocked := screenPane(t, m, "claude-fullscreen-2.1.328.blocked.bash.screen.txt")
	working := screenPane(t, m, "claude-2.1.328.working.screen.txt")
	echo, err := m.Create(terminal.Options{Dir: t.TempDir(), Cols: 80, Rows: 24, Argv: []string{"/bin/cat"}})
	if err != nil {
		t.Fatal(err)
	}
	waitScreen(t, p, blocked, "Bash command")
	waitScreen(t, p, working, "esc to interrupt")

	cases := []struct {
		name, id, state string
		blocked         bool
	}{
		{"permission prompt", blocked, "blocked", true},
		{"working turn", working, "working", false},
		{"plain program", echo.ID, "idle", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines, state, err := p.Screen(c.id)
			if err != nil {
				t.Fatal(err)
			}
			if state != c.state || p.Blocked(lines) != c.blocked {
				t.Fatalf("state %q blocked %v, want %q %v", state, p.Blocked(lines), c.state, c.blocked)
			}
		})
	}
	states := map[string]string{}
	for _, pi := range p.List() {
		states[pi.ID] = pi.Agent + "/" + pi.State
	}
	if states[blocked] != "claude/blocked" || states[working] != "claude/working" || states[echo.ID] != "/idle" {
		t.Fatalf("list agents/states = %v", states)
	}

	ex := tools.NewExecutor(tools.Options{Approver: approveAll{}})
	if err := tools.RegisterBuiltins(ex, tools.Deps{Panes: p, Blocked: p.Blocked}); err != nil {
		t.Fatal(err)
	}
	send := func(id, text string) tools.Result {
		args, _ := json.Marshal(map[string]any{"id": id, "text": text})
		res, err := ex.Execute(context.Background(), tools.Call{Tool: "runtime_send", Args: args, Watched: true, Workspace: "w"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := send(blocked, "yes please"); !res.IsError || !strings.Contains(res.Text, "waiting for a decision") {
		t.Fatalf("send into a prompt = %+v", res)
	}
	if res := send(echo.ID, "typed-by-tool"); res.IsError {
		t.Fatalf("send = %+v", res)
	}
	waitScreen(t, p, echo.ID, "typed-by-tool")
}

func TestUnknownAndEndedPanes(t *testing.T) {
	m := terminal.NewManager(nil)
	defer m.CloseAll()
	p, err := New(m, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Screen("nope"); !errors.Is(err, tools.ErrNoPane) {
		t.Fatalf("Screen(unknown) = %v, want ErrNoPane", err)
	}
	if err := p.Send("nope", "x", false); !errors.Is(err, tools.ErrNoPane) {
		t.Fatalf("Send(unknown) = %v, want ErrNoPane", err)
	}
	info, err := m.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"/bin/true"}})
	if err != nil {
		t.Fatal(err)
	}
	pane, _ := m.Get(info.ID)
	<-pane.Done()
	if _, state, _ := p.Screen(info.ID); state != "exited" {
		t.Fatalf("ended pane state = %q", state)
	}
	if err := p.Send(info.ID, "x", false); err == nil || !strings.Contains(err.Error(), "has ended") {
		t.Fatalf("Send(ended) = %v", err)
	}
	loop, err := m.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"/bin/sh", "-c", "while :; do sleep 1; done"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Pause(loop.ID); err != nil {
		t.Fatal(err)
	}
	if err := p.Send(loop.ID, "x", false); err == nil || !strings.Contains(err.Error(), "paused; resume it first") {
		t.Fatalf("Send(paused) = %v", err)
	}
	for _, pi := range p.List() {
		if pi.ID == loop.ID && pi.State != "paused" {
			t.Fatalf("paused pane listed as %q", pi.State)
		}
	}
	if err := m.Resume(loop.ID); err != nil {
		t.Fatal(err)
	}
	if err := p.Send(loop.ID, "x", false); err != nil {
		t.Fatalf("Send after Resume = %v", err)
	}
	if _, err := New(nil, nil); err == nil {
		t.Fatal("New without a terminal must fail")
	}
}

type approveAll struct{}

func (approveAll) RequestApproval(context.Context, tools.ApprovalRequest) (tools.ApprovalDecision, error) {
	return tools.ApprovalDecision{Approved: true}, nil
}
