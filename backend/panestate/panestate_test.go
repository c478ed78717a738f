package panestate

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/acp"
	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panehook"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/fakeprompt"
	"github.com/osfoundry/desktop/rules"
)

// TestMain lets the test binary stand in for the app binary in its pane
// helper mode (`osfoundry pane report|notify|session`), as Claude's hooks
// call it, and for `osfoundry acp` (the app's ACP client in a pane).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "acp" {
		os.Exit(acp.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	}
	if len(os.Args) > 2 && os.Args[1] == "pane" {
		var payload []byte
		kind, arg := os.Args[2], ""
		if kind == "report" && len(os.Args) > 3 {
			arg = os.Args[3]
		} else if kind == "notify" || kind == "session" {
			payload, _ = io.ReadAll(os.Stdin)
		}
		if err := panehook.Send(os.Getenv, kind, arg, payload); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// rig is a real terminal.Manager with detection wired, recording every
// state change with the time it arrived.
type rig struct {
	t   *testing.T
	mgr *terminal.Manager
	w   *Watcher

	mu      sync.Mutex
	changes []stamped
	notes   []detect.Notification
}

type stamped struct {
	PaneState
	at time.Time
}

func newRig(t *testing.T, cfg Config) *rig {
	t.Helper()
	reg, _, err := detect.Load(rules.Files, "")
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, mgr: terminal.NewManager(nil)}
	cfg.Registry = reg
	cfg.Notify = func(n detect.Notification) { r.mu.Lock(); r.notes = append(r.notes, n); r.mu.Unlock() }
	if r.w, err = New(r.mgr, cfg); err != nil {
		t.Fatal(err)
	}
	r.w.OnChange(func(s PaneState) {
		r.mu.Lock()
		r.changes = append(r.changes, stamped{s, time.Now()})
		r.mu.Unlock()
	})
	r.w.Start()
	t.Cleanup(func() { r.mgr.CloseAll(); r.w.Close() })
	return r
}

func (r *rig) stateNow(id string) string {
	st, _ := r.w.State(id)
	return st.State
}

// waitState waits for pane id to reach state and returns when it did.
func (r *rig) waitState(id, state string, after time.Time) time.Time {
	r.t.Helper()
	end := time.Now().Add(15 * time.Second)
	for time.Now().Before(end) {
		r.mu.Lock()
		for _, c := range r.changes {
			if c.ID == id && c.State == state && !c.at.Before(after) {
				r.mu.Unlock()
				return c.at
			}
		}
		r.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	p, _ := r.mgr.Get(id)
	st, _ := r.w.State(id)
	r.t.Fatalf("pane never reached %s (now %+v); screen:\n%s", state, st, strings.Join(p.Screen().Lines, "\n"))
	return time.Time{}
}

func TestScriptedPromptNeedsYouAndBack(t *testing.T) {
	r := newRig(t, Config{})
	dir := filepath.Join(t.TempDir(), "shop-api")
	os.Mkdir(dir, 0o700)
	info, err := r.mgr.Create(terminal.Options{Dir: dir, Argv: []string{"bash", fakeprompt.Script()}, Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	r.waitState(info.ID, "idle", time.Time{})
	if st, _ := r.w.State(info.ID); st.Agent != "claude" || st.Label != "shop-api" {
		t.Fatalf("state = %+v, want Claude recognised from the screen, label shop-api", st)
	}

	// Prompt drawn → Needs you, measured from the moment the pane's screen
	// first shows the prompt.
	var lat []time.Duration
	for round := 0; round < 8; round++ {
		drawn := make(chan time.Time, 1)
		stop := watchScreen(p, "Do you want to proceed?", drawn)
		t0 := time.Now()
		p.Write([]byte("t"))
		blockedAt := r.waitState(info.ID, "blocked", t0)
		stop()
		at := <-drawn
		lat = append(lat, blockedAt.Sub(at))
		st, _ := r.w.State(info.ID)
		if !strings.Contains(st.Reason, "rule 1 (blocked)") {
			t.Fatalf("blocked reason = %q", st.Reason)
		}
		t1 := time.Now()
		p.Write([]byte("1"))
		r.waitState(info.ID, "working", t1)
		r.waitState(info.ID, "idle", t1)
		if h := r.w.History(info.ID); h[len(h)-1].State != "idle" {
			t.Fatalf("history ends with %+v", h[len(h)-1])
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("prompt drawn → blocked: median %v, max %v over %d prompts", lat[len(lat)/2], lat[len(lat)-1], len(lat))

	r.mu.Lock()
	notes := append([]detect.Notification(nil), r.notes...)
	r.mu.Unlock()
	// Eight prompts within the cooldown ring once.
	if len(notes) != 1 || notes[0].Title != "Needs you · shop-api" || notes[0].Session != info.ID {
		t.Fatalf("notifications = %+v, want one \"Needs you · shop-api\"", notes)
	}

	// Closing the pane forgets it.
	r.mgr.Close(info.ID)
	if _, ok := r.w.State(info.ID); ok {
		t.Fatal("a closed pane still has a state")
	}
}

// watchScreen polls the pane's screen until it shows text, and sends the
// first time it did (1 ms resolution; independent of detection).
func watchScreen(p *terminal.Pane, text string, out chan<- time.Time) (stop func()) {
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if strings.Contains(strings.Join(p.Emulator().Lines(), "\n"), text) {
				out <- time.Now()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	return func() { close(done) }
}

// fakeClaude writes an executable named claude that prints its argv and
// hook environment, then runs the hook helper the way Claude's
// Notification hook would.
func fakeClaude(t *testing.T, version string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "claude")
	script := `#!/bin/sh
if [ "$1" = "--version" ]; then echo "` + version + ` (Claude Code)"; exit 0; fi
printf 'ARGC=%s\n' "$#"
for a in "$@"; do printf 'ARG=%s\n' "$a"; done
printf 'SECRET=%s\n' "${OSF_PANE_SECRET:+set}"
echo '{"notification_type":"permission_prompt","message":"Claude needs your permission to use Bash"}' | "$OSF_TEST_EXE" pane notify && echo HOOK-OK
sleep 30
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestClaudeRunGetsHooksAndReportsThroughThem(t *testing.T) {
	exe, _ := os.Executable()
	for _, tt := range []struct {
		version string
		perm    bool
	}{{"2.1.328", true}, {"2.0.10", false}} {
		t.Run(tt.version, func(t *testing.T) {
			r := newRig(t, Config{Exe: exe})
			bin := fakeClaude(t, tt.version)
			env := append(os.Environ(), "OSF_TEST_EXE="+exe)
			info, err := r.mgr.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{bin, "--model", "opus"}, Env: env, Cols: 200, Rows: 40})
			if err != nil {
				t.Fatal(err)
			}
			r.waitState(info.ID, "blocked", time.Time{})
			st, _ := r.w.State(info.ID)
			if st.Source != "hook" || st.Message != "Claude needs your permission to use Bash" {
				t.Fatalf("state = %+v, want blocked from the hook with its message", st)
			}
			// The hook reports before it exits and the script echoes
			// HOOK-OK, so wait for the screen to catch up.
			p, _ := r.mgr.Get(info.ID)
			seen := make(chan time.Time, 1)
			stop := watchScreen(p, "HOOK-OK", seen)
			select {
			case <-seen:
			case <-time.After(10 * time.Second):
			}
			stop()
			screen := strings.Join(p.Screen().Lines, "\n")
			for _, want := range []string{"ARGC=4", "ARG=--model", "ARG=--settings", `"Notification"`, "SECRET=set", "HOOK-OK"} {
				if !strings.Contains(screen, want) {
					t.Errorf("screen lacks %q:\n%s", want, screen)
				}
			}
			if got := strings.Contains(screen, "PermissionRequest"); got != tt.perm {
				t.Errorf("PermissionRequest hook present = %v, want %v for %s", got, tt.perm, tt.version)
			}
			// The per-run flags are neither shown nor remembered.
			if argv := r.mgr.List()[0].Argv; len(argv) != 3 {
				t.Errorf("Info.Argv = %q, want the user's command only", argv)
			}
		})
	}
}

func TestOtherCommandsGetNoSettings(t *testing.T) {
	exe, _ := os.Executable()
	r := newRig(t, Config{Exe: exe})
	info, err := r.mgr.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"sh", "-c", `echo "args:$#:$0" "${OSF_PANE_ID:-none}"; sleep 30`}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	end := time.Now().Add(10 * time.Second)
	for !strings.Contains(strings.Join(p.Screen().Lines, "\n"), "args:") && time.Now().Before(end) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := strings.Join(p.Screen().Lines, "\n"); !strings.Contains(got, "args:0:sh "+info.ID) {
		t.Fatalf("screen = %q, want no extra args and the pane id in the environment", got)
	}
}

func TestVersionAtLeast(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"2.1.328 (Claude Code)", true},
		{"2.0.45 (Claude Code)", true},
		{"2.0.44", false},
		{"1.9.99", false},
		{"10.0.0", true},
		{"garbage", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := versionAtLeast(tt.in, permissionRequestSince); got != tt.want {
			t.Errorf("versionAtLeast(%q) = %v", tt.in, got)
		}
	}
}
