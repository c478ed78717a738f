package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/record"
)

// The harness records Claude Code and Codex; Gemini CLI speaks the Gemini
// API, which its fake model server does not, so this records Gemini CLI's
// TUI states against a small fake Gemini endpoint. It runs only on demand:
//
//	OSF_RECORD_GEMINI=1 go test ./backend/detect/replay -run TestRecordGemini
//
// and writes testdata/gemini-<version>.<state>.raw, which
// TestRecordedFixtures then replays like the harness's captures.
func TestRecordGemini(t *testing.T) {
	if os.Getenv("OSF_RECORD_GEMINI") == "" {
		t.Skip("records the real Gemini CLI; set OSF_RECORD_GEMINI=1 to re-record testdata/gemini-*.raw")
	}
	bin, ok := agentbin.Find("gemini")
	if !ok {
		t.Skip(agentbin.SkipMessage("gemini"))
	}
	version, err := agentbin.Version("@google/gemini-cli")
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeGemini(t)
	base := t.TempDir()
	home, work := filepath.Join(base, "home"), filepath.Join(base, "work")
	for _, d := range []string{filepath.Join(home, ".gemini"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings := `{"security":{"auth":{"selectedType":"gemini-api-key"},"folderTrust":{"enabled":false}},
"general":{"disableAutoUpdate":true,"disableUpdateNag":true},"privacy":{"usageStatisticsEnabled":false},
"ui":{"hideTips":true},"telemetry":{"enabled":false}}`
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &agentenv.Env{Agent: "gemini", Bin: bin, Home: home, Work: work, Env: []string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8",
		"GEMINI_API_KEY=fake-key", "GOOGLE_GEMINI_BASE_URL=" + srv.url, "NO_BROWSER=1",
		"GEMINI_CLI_NO_RELAUNCH=true",
	}}
	out := "testdata"
	s, err := record.Start(env, "gemini-"+version, out, []string{bin})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Log = t.Logf
	long := 60 * time.Second
	idle := regexp.MustCompile(`Type your message or @path/to/file`)
	steps := []func() error{
		func() error { return s.WaitSave(idle, long, "idle") },
		func() error { return s.Type("Run the marker command") },
		func() error { return s.WaitSave(regexp.MustCompile(`esc to cancel`), long, "working") },
		func() error {
			srv.release()
			return s.WaitSave(regexp.MustCompile(`Allow execution of`), long, "blocked.bash")
		},
		func() error { return s.Send("\r") },
		func() error {
			return s.WaitSave(regexp.MustCompile(`✓\s+Shell touch[\s\S]*esc to cancel`), long, "after-answer")
		},
		func() error {
			srv.release()
			return s.WaitSave(regexp.MustCompile(`Would you like me to add a README`), long, "idle.question")
		},
		func() error { return s.Type("Write hello.txt") },
		func() error {
			srv.release()
			return s.WaitSave(regexp.MustCompile(`Apply this change\?`), long, "blocked.edit")
		},
		func() error { return s.Send("\r") },
		func() error { srv.release(); return s.Wait(regexp.MustCompile(`Wrote hello.txt for you`), long) },
		func() error { return s.Wait(idle, long) },
		// A turn the user interrupts with Esc (the held reply never comes).
		func() error { return s.Type("Think about it for a long time") },
		func() error { return s.Wait(regexp.MustCompile(`esc to cancel`), long) },
		func() error { return s.Send("\x1b") },
		func() error { return s.WaitGone(regexp.MustCompile(`esc to cancel`), long) },
		func() error { return s.WaitSave(idle, long, "interrupted") },
		func() error { return s.Type("/quit") },
		func() error { return s.WaitExit(long) },
		func() error { return s.Save("exited") },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v\nscreen:\n%s", i+1, err, s.Screen())
		}
	}
	t.Logf("recorded %v", s.Saved())
}

// fakeGemini answers streamGenerateContent with a scripted turn per call
// (each held until release) and every other call with neutral JSON text
// (Gemini CLI's next-speaker and routing checks ask for JSON).
type fakeGemini struct {
	url   string
	mu    sync.Mutex
	turn  int
	gates chan struct{}
}

func newFakeGemini(t *testing.T) *fakeGemini {
	f := &fakeGemini{gates: make(chan struct{}, 16)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.url = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(f.serve)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return f
}

func (f *fakeGemini) release() { f.gates <- struct{}{} }

var geminiTurns = []any{
	map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": "touch osf-bash.txt && echo osf-marker-42", "description": "Print the marker"}}},
	map[string]any{"text": "I ran it. Would you like me to add a README as well?"},
	map[string]any{"functionCall": map[string]any{"name": "write_file", "args": map[string]any{"file_path": "hello.txt", "content": "hello from gemini\n"}}},
	map[string]any{"text": "Wrote hello.txt for you."},
	map[string]any{"text": "Thought it over."},
}

func (f *fakeGemini) serve(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		if strings.Contains(r.URL.Path, ":countTokens") {
			w.Write([]byte(`{"totalTokens":10}`))
			return
		}
		reply(w, map[string]any{"text": `{"next_speaker":"user","reasoning":"done","model_choice":"flash"}`})
		return
	}
	f.mu.Lock()
	n := f.turn
	f.turn++
	f.mu.Unlock()
	if n >= len(geminiTurns) {
		n = len(geminiTurns) - 1
	} else {
		// Hold the turn: the recorder saves "working" meanwhile. Esc in the
		// CLI cancels the request.
		select {
		case <-f.gates:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	b, _ := json.Marshal(response(geminiTurns[n]))
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
}

func response(part any) map[string]any {
	return map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-fake",
	}
}

func reply(w http.ResponseWriter, part any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(response(part))
}
