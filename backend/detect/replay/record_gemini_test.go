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
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/record"
)

// The harness records Claude Code and Codex; Gemini CLI and Qwen Code speak
// the Gemini API (Qwen through its gemini auth), which its fake model server
// does not, so this records their TUI states against a small fake Gemini
// endpoint. It runs only on demand:
//
//	OSF_RECORD_AGENTS=gemini,qwen go test ./backend/detect/replay -run TestRecordGeminiAPIAgents
//
// and writes testdata/<agent>-<version>.<state>.raw, which
// TestRecordedFixtures then replays like the harness's captures.
func TestRecordGeminiAPIAgents(t *testing.T) {
	want := os.Getenv("OSF_RECORD_AGENTS")
	if want == "" {
		t.Skip("records real CLIs; set OSF_RECORD_AGENTS=gemini,qwen to re-record testdata/*.raw")
	}
	agents := []struct {
		name, bin, pkg, settingsDir, settings string
		env, args                             []string
	}{
		{"gemini", "gemini", "@google/gemini-cli", ".gemini",
			`{"security":{"auth":{"selectedType":"gemini-api-key"},"folderTrust":{"enabled":false}},
"general":{"disableAutoUpdate":true,"disableUpdateNag":true},"privacy":{"usageStatisticsEnabled":false},
"ui":{"hideTips":true},"telemetry":{"enabled":false}}`, []string{"GEMINI_CLI_NO_RELAUNCH=true"}, nil},
		{"qwen", "qwen", "@qwen-code/qwen-code", ".qwen",
			`{"security":{"auth":{"selectedType":"gemini"},"folderTrust":{"enabled":false}},
"general":{"disableAutoUpdate":true,"disableUpdateNag":true},"privacy":{"usageStatisticsEnabled":false},
"ui":{"hideTips":true},"telemetry":{"enabled":false}}`, []string{"GEMINI_MODEL=gemini-fake", "QWEN_CODE_NO_RELAUNCH=true"},
			// Its default "auto" mode asks a model whether to approve; ask the user.
			[]string{"--approval-mode", "default"}},
	}
	for _, a := range agents {
		if !strings.Contains(","+want+",", ","+a.name+",") {
			continue
		}
		t.Run(a.name, func(t *testing.T) {
			bin, ok := agentbin.Find(a.bin)
			if !ok {
				t.Skip(agentbin.SkipMessage(a.bin))
			}
			version, err := agentbin.Version(a.pkg)
			if err != nil {
				t.Fatal(err)
			}
			srv := newFakeGemini(t)
			base := t.TempDir()
			home, work := filepath.Join(base, "home"), filepath.Join(base, "work")
			srv.work = work
			for _, d := range []string{filepath.Join(home, a.settingsDir), work} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(home, a.settingsDir, "settings.json"), []byte(a.settings), 0o644); err != nil {
				t.Fatal(err)
			}
			env := &agentenv.Env{Agent: a.name, Bin: bin, Home: home, Work: work, Env: append([]string{
				"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8",
				"GEMINI_API_KEY=fake-key", "GOOGLE_GEMINI_BASE_URL=" + srv.url, "NO_BROWSER=1",
			}, a.env...)}
			recordGeminiLike(t, env, srv, a.name+"-"+version, a.args)
		})
	}
}

func recordGeminiLike(t *testing.T, env *agentenv.Env, srv *fakeGemini, name string, args []string) {
	s, err := record.Start(env, name, "testdata", append([]string{env.Bin}, args...))
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
			return s.WaitSave(regexp.MustCompile(`✓\s+Shell[\s\S]*esc to cancel`), long, "after-answer")
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
		// Qwen puts the interrupted prompt back into the input box.
		func() error {
			return s.WaitSave(regexp.MustCompile(`Type your message or @path/to/file|> Think about it`), long, "interrupted")
		},
		func() error { return s.Send("\x15") }, // clear a restored prompt
		func() error { time.Sleep(300 * time.Millisecond); return s.Type("/quit") },
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

// fakeGemini answers the main conversation from what the request asks —
// the user's last words or the tool result it carries — holding each reply
// until release (so the recorder can save "working"), and every other call
// (next-speaker, routing, titles) at once with neutral JSON text.
type fakeGemini struct {
	url   string
	work  string // absolute folder for file paths (Qwen refuses relative ones)
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

type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             string `json:"text"`
			FunctionResponse *struct {
				Name string `json:"name"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
}

// turnFor scripts the conversation; nil means "not the main conversation".
func (f *fakeGemini) turnFor(req geminiRequest) (part any, hold bool) {
	if len(req.Contents) == 0 {
		return nil, false
	}
	last := req.Contents[len(req.Contents)-1]
	for _, p := range last.Parts {
		if p.FunctionResponse != nil {
			switch p.FunctionResponse.Name {
			case "run_shell_command":
				return map[string]any{"text": "I ran it. Would you like me to add a README as well?"}, true
			case "write_file":
				return map[string]any{"text": "Wrote hello.txt for you."}, true
			}
		}
		switch {
		case strings.Contains(p.Text, "Run the marker command"):
			return map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": "touch osf-bash.txt && echo osf-marker-42", "description": "Print the marker"}}}, true
		case strings.Contains(p.Text, "Write hello.txt"):
			return map[string]any{"functionCall": map[string]any{"name": "write_file", "args": map[string]any{"file_path": filepath.Join(f.work, "hello.txt"), "content": "hello from the agent\n"}}}, true
		case strings.Contains(p.Text, "Think about it for a long time"):
			return map[string]any{"text": "Thought it over."}, true
		}
	}
	return nil, false
}

func (f *fakeGemini) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if strings.Contains(r.URL.Path, ":countTokens") {
		w.Write([]byte(`{"totalTokens":10}`))
		return
	}
	neutral := map[string]any{"text": `{"next_speaker":"user","reasoning":"done","model_choice":"flash"}`}
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		// Utility calls (routing, next speaker) carry the user's words too.
		reply(w, neutral)
		return
	}
	var req geminiRequest
	json.Unmarshal(body, &req)
	part, hold := f.turnFor(req)
	if part == nil {
		part = neutral
	}
	if hold {
		// Esc in the CLI cancels the request.
		select {
		case <-f.gates:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	b, _ := json.Marshal(response(part))
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
