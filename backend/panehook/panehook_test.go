package panehook

import (
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

func envOf(kv []string) func(string) string {
	m := map[string]string{}
	for _, e := range kv {
		k, v, _ := strings.Cut(e, "=")
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

func TestReportsReachOnlyTheirPane(t *testing.T) {
	var mu sync.Mutex
	var got []Report
	s, err := Start(func(r Report) { mu.Lock(); got = append(got, r); mu.Unlock() })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := s.Register("p-a")
	b := s.Register("p-b")

	if err := Send(envOf(a), "report", "working", nil); err != nil {
		t.Fatalf("valid report refused: %v", err)
	}
	payload := []byte(`{"hook_event_name":"Notification","notification_type":"permission_prompt"}`)
	if err := Send(envOf(a), "notify", "", payload); err != nil {
		t.Fatalf("valid notify refused: %v", err)
	}
	// Pane b's secret cannot report as pane a.
	forged := envOf(append([]string{EnvPane + "=p-a"}, b[1:]...))
	if err := Send(forged, "report", "done", nil); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("another pane's secret must be refused with 401, got %v", err)
	}
	wrong := envOf([]string{EnvPane + "=p-a", a[1], EnvSecret + "=" + strings.Repeat("0", 64)})
	if err := Send(wrong, "report", "done", nil); err == nil {
		t.Fatal("a wrong secret must be refused")
	}
	s.Forget("p-a")
	if err := Send(envOf(a), "report", "done", nil); err == nil {
		t.Fatal("a closed pane must no longer accept reports")
	}
	if err := Send(func(string) string { return "" }, "report", "done", nil); err != ErrNotInPane {
		t.Fatalf("outside a pane: want ErrNotInPane, got %v", err)
	}
	if err := Send(envOf(b), "notify", "", []byte("not json")); err == nil {
		t.Fatal("non-JSON payload must be refused before sending")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0].Arg != "working" || got[1].Kind != "notify" || got[0].Pane != "p-a" {
		t.Fatalf("delivered reports: %+v", got)
	}
}

func TestClaudeSettingsQuotesTheBinary(t *testing.T) {
	exe := "/opt/my apps/it's here/osfoundry"
	var v struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct{ Type, Command string }
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(ClaudeSettings(exe, true)), &v); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "Notification", "Stop", "PermissionRequest"} {
		if len(v.Hooks[ev]) != 1 {
			t.Fatalf("hook %s missing", ev)
		}
	}
	if v.Hooks["PreToolUse"][0].Matcher != "*" {
		t.Fatal("PreToolUse needs the * matcher")
	}
	cmd := v.Hooks["Stop"][0].Hooks[0].Command
	// The shell must see the path as one word: print it through sh.
	echo := strings.Replace(cmd, shellQuote(exe), "printf '%s\\n' "+shellQuote(exe), 1)
	echo = strings.TrimSuffix(echo, " >/dev/null 2>&1 || true")
	printed, err := exec.Command("sh", "-c", echo).Output()
	if err != nil {
		t.Fatal(err)
	}
	if first := strings.Split(string(printed), "\n")[0]; first != exe {
		t.Fatalf("shell saw %q, want %q", first, exe)
	}
}

// The session hook reports which conversation runs in the pane, with the
// hook payload Claude Code writes on stdin.
func TestSessionReportsCarryThePayload(t *testing.T) {
	var got []Report
	s, err := Start(func(r Report) { got = append(got, r) })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	env := s.Register("p-s")
	payload := []byte(`{"session_id":"3f2a","transcript_path":"/h/.claude/projects/-w/3f2a.jsonl","source":"startup"}`)
	if err := Send(envOf(env), "session", "", payload); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Kind != "session" || string(got[0].Payload) != string(payload) {
		t.Fatalf("delivered %+v, want the session payload", got)
	}
	var v struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Command string }
		} `json:"hooks"`
	}
	json.Unmarshal([]byte(ClaudeSettings("/bin/osfoundry", false)), &v)
	if h := v.Hooks["SessionStart"]; len(h) != 1 || !strings.Contains(h[0].Hooks[0].Command, " pane session ") || h[0].Matcher != "startup|resume|clear|compact" {
		t.Fatalf("SessionStart hook = %+v, want `pane session`", h)
	}
}
