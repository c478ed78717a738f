package remoteanswer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/testkit/fixtures"
	"github.com/osfoundry/desktop/backend/tools"
	"github.com/osfoundry/desktop/rules"
)

// FakePanes is one pane whose screen the test sets; what is typed is kept.
type FakePanes struct {
	mu     sync.Mutex
	Lines  []string
	Typed  []string
	OnSend func(text string)
}

func (f *FakePanes) List() []tools.PaneInfo { return []tools.PaneInfo{{ID: "p-1", Title: "claude"}} }

func (f *FakePanes) Screen(id string) ([]string, string, error) {
	if id != "p-1" {
		return nil, "", tools.ErrNoPane
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.Lines...), "", nil
}

func (f *FakePanes) Send(id, text string, enter bool) error {
	if enter {
		text += "\r"
	}
	f.mu.Lock()
	f.Typed = append(f.Typed, text)
	on := f.OnSend
	f.mu.Unlock()
	if on != nil {
		on(text)
	}
	return nil
}

func (f *FakePanes) set(lines []string) { f.mu.Lock(); f.Lines = lines; f.mu.Unlock() }

func (f *FakePanes) typed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.Typed...)
}

func screen(t *testing.T, name string) []string {
	t.Helper()
	dir, err := fixtures.Dir()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}

// blockedBy is the detection rules' verdict, as panetools.Blocked gives it.
func blockedBy(t *testing.T) tools.BlockedFunc {
	t.Helper()
	reg, _, err := detect.Load(rules.Files, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return func(lines []string) bool {
		for _, a := range reg.Agents() {
			if rs := reg.Get(a); rs != nil && rs.CheckSend(lines) != nil {
				return true
			}
		}
		return false
	}
}

// Real captures: the numbered menu is counted, never read out.
func TestChoicesOfRealPrompts(t *testing.T) {
	for name, want := range map[string]int{
		"claude-2.1.328.blocked.bash.screen.txt":            4,
		"codex-0.169.0.blocked.bash.screen.txt":             3,
		"claude-2.1.328.blocked.question.screen.txt":        4,
		"claude-fullscreen-2.1.328.blocked.bash.screen.txt": -1, // whatever it shows, > 0
	} {
		got := countChoices(screen(t, name))
		if want > 0 && got != want || want < 0 && got < 2 {
			t.Errorf("%s: %d choices, want %d", name, got, want)
		}
	}
	if got := countChoices([]string{"1. first step", "2. second", "some text", "❯ 1. Yes", "  2. No"}); got != 2 {
		t.Errorf("the last menu on the screen: %d, want 2", got)
	}
}

// An answer is typed only while the prompt shows (runtime_answer's guard,
// at the moment of typing); typed or not, it is audited with its origin.
func TestAnswerGoesThroughTheGuardAndTheAudit(t *testing.T) {
	prompt := screen(t, "claude-2.1.328.blocked.bash.screen.txt")
	panes := &FakePanes{Lines: prompt}
	audit := &tools.MemoryAuditor{}
	ty, err := New(panes, blockedBy(t), audit)
	if err != nil {
		t.Fatal(err)
	}
	from := "team server page (Mozilla/5.0 (iPhone))"
	for _, c := range []struct {
		name  string
		a     teamclient.RemoteAnswer
		typed string
	}{
		{"approve picks the first option", teamclient.RemoteAnswer{ID: "a1", Answer: "approve", Origin: from}, "1"},
		{"decline is escape", teamclient.RemoteAnswer{ID: "a2", Answer: "decline", Origin: from}, "\x1b"},
		{"a choice is its number", teamclient.RemoteAnswer{ID: "a3", Answer: "choice", Choice: 3, Origin: from}, "3"},
		{"a reply is typed and entered", teamclient.RemoteAnswer{ID: "a4", Answer: "text", Text: "use the staging db", Origin: from}, "use the staging db\r"},
	} {
		panes.Typed = nil
		ok, err := ty.Answer(context.Background(), "p-1", c.a)
		if err != nil || !ok || strings.Join(panes.typed(), "") != c.typed {
			t.Errorf("%s: typed %v %v %q, want %q", c.name, ok, err, panes.typed(), c.typed)
		}
	}
	// Claude Code's question: a reply picks "Type something." first.
	panes.set(screen(t, "claude-2.1.328.blocked.question.screen.txt"))
	panes.Typed = nil
	if ok, err := ty.Answer(context.Background(), "p-1", teamclient.RemoteAnswer{ID: "q1", Answer: "text", Text: "AsciiDoc", Origin: from}); !ok || err != nil ||
		strings.Join(panes.typed(), "|") != "3|AsciiDoc\r" {
		t.Fatalf("a reply to a question: %v %v, typed %q", ok, err, panes.typed())
	}
	panes.set(prompt)
	// Answered at the desk meanwhile: the screen no longer asks.
	panes.Typed = nil
	panes.set(screen(t, "claude-2.1.328.after-answer.screen.txt"))
	if ok, err := ty.Answer(context.Background(), "p-1", teamclient.RemoteAnswer{ID: "a5", Answer: "approve", Origin: from}); ok || err != nil || len(panes.typed()) != 0 {
		t.Fatalf("a prompt that is gone: %v %v, typed %q", ok, err, panes.typed())
	}
	// A pane that closed is an error, not "answered at the desk".
	if ok, err := ty.Answer(context.Background(), "p-9", teamclient.RemoteAnswer{ID: "a6", Answer: "approve", Origin: from}); ok || err == nil {
		t.Fatalf("a closed pane: %v %v", ok, err)
	}
	es := audit.Entries()
	if len(es) != 7 {
		t.Fatalf("%d audit entries, want 7", len(es))
	}
	for _, e := range es {
		var args map[string]string
		_ = json.Unmarshal(e.Args, &args)
		if e.Tool != "runtime_answer" || e.Channel != Channel || e.Source != from || args["from_answer"] == "" || e.Decision == "" {
			t.Errorf("audit entry %+v", e)
		}
	}
	if !strings.Contains(es[5].Detail, "not waiting for a decision") {
		t.Errorf("the refused answer's audit says %q", es[5].Detail)
	}
}
