package agentcli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/procs"
)

// The fake CLIs are this test binary run again as the child (the
// helperCommand pattern of os/exec's tests), behind a script named claude
// or codex so discovery finds it in PATH like the real one.

const fakeModeVar = "OSF_FAKE_CLI"

// fakeCLI installs fake claude and codex scripts in a temp bin folder and
// returns a Runner whose children run mode.
func fakeCLI(t testing.TB, mode string, extraEnv ...string) (*Runner, string) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"claude", "codex"} {
		script := fmt.Sprintf("#!/bin/sh\nexec '%s' -test.run='^TestHelperProcess$' -- %s \"$@\"\n", self, name)
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + dir, fakeModeVar + "=" + mode,
		"OSF_FAKE_DIR=" + dir}
	env = append(env, extraEnv...)
	work := filepath.Join(dir, "work")
	os.MkdirAll(work, 0o755) //nolint:errcheck // checked by the run
	return NewRunner(RunnerOptions{Env: Env{Home: dir, Path: bin, Environ: env},
		WorktreeDir: filepath.Join(dir, "worktrees")}), work
}

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(fakeModeVar)
	if mode == "" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(fakeMain(mode, args[0], args[1:]))
}

const codexHelp = `Usage: codex exec [OPTIONS] [PROMPT]
      --ephemeral
      --skip-git-repo-check
      --ignore-user-config
      --ignore-rules
          Do not load user or project execpolicy .rules files
      --json
`

func fakeMain(mode, agent string, args []string) int {
	out := func(v any) { b, _ := json.Marshal(v); fmt.Println(string(b)) }
	if len(args) == 1 && args[0] == "--version" {
		if agent == "claude" {
			fmt.Println("2.1.328 (Claude Code)")
		} else {
			fmt.Println("codex-cli 0.169.0")
		}
		return 0
	}
	if agent == "codex" && len(args) > 0 && args[len(args)-1] == "--help" {
		if mode == "codex-old" {
			fmt.Print(strings.ReplaceAll(codexHelp, "--ignore-rules", "--ignore-nothing"))
		} else {
			fmt.Print(codexHelp)
		}
		if f := os.Getenv("OSF_FAKE_DIR"); f != "" {
			appendFile(filepath.Join(f, "help-calls"), "help\n")
		}
		return 0
	}
	final := func(text string) {
		if agent == "claude" {
			out(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": text,
				"session_id": "s-1", "usage": map[string]any{"input_tokens": 3, "output_tokens": 1}})
			return
		}
		out(map[string]any{"type": "item.completed", "item": map[string]any{"id": "i", "type": "agent_message", "text": text}})
		out(map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": 3, "cached_input_tokens": 2, "output_tokens": 1}})
	}
	switch mode {
	case "argv", "codex-old":
		out(map[string]any{"type": "argv_dump", "argv": args})
		final("ok")
	case "printenv":
		for _, kv := range os.Environ() {
			fmt.Println("ENV " + kv)
		}
		final("ok")
	case "old":
		fmt.Fprintln(os.Stderr, "error: unknown option '--include-partial-messages'")
		return 1
	case "exit3":
		fmt.Println("starting")
		fmt.Fprintln(os.Stderr, "fatal: model overloaded, try later")
		return 3
	case "nonjson":
		fmt.Println("Warning: something odd")
		fmt.Println("{broken json")
		final("answer despite noise")
	case "flood":
		line := strings.Repeat("flood ", 20)
		for range 200000 {
			fmt.Println(line)
		}
		final("survived the flood")
	case "die":
		if agent == "claude" {
			out(map[string]any{"type": "system", "subtype": "init", "session_id": "s-1"})
		} else {
			out(map[string]any{"type": "thread.started", "thread_id": "t-1"})
		}
		if self, err := os.FindProcess(os.Getpid()); err == nil {
			self.Kill() // killed mid-run, as by the OOM killer
		}
	case "noresult":
		out(map[string]any{"type": "system", "subtype": "init", "session_id": "s-1"})
	case "notloggedin":
		if agent == "claude" {
			out(map[string]any{"type": "result", "subtype": "success", "is_error": true, "result": "Not logged in · Please run /login"})
			return 1
		}
		out(map[string]any{"type": "error", "message": "401 Unauthorized: sign in with codex login"})
		out(map[string]any{"type": "turn.failed", "error": map[string]any{"message": "401 Unauthorized"}})
		return 1
	case "slow":
		// Ten ticks a tenth of a second apart, then the answer: a run that
		// keeps printing while it works.
		appendFile(filepath.Join(os.Getenv("OSF_FAKE_DIR"), "pids"), fmt.Sprintf("%d\n", os.Getpid()))
		for i := range 10 {
			out(map[string]any{"type": "tick", "n": i})
			time.Sleep(100 * time.Millisecond)
		}
		final("slow done")
	case "offline":
		// What each CLI prints when it cannot reach its service (recorded
		// from Claude Code 2.1.328 and Codex 0.169.0), then it keeps trying.
		appendFile(filepath.Join(os.Getenv("OSF_FAKE_DIR"), "pids"), fmt.Sprintf("%d\n", os.Getpid()))
		if agent == "claude" {
			out(map[string]any{"type": "system", "subtype": "init", "session_id": "s-1"})
			for i := 1; i <= 5; i++ {
				out(map[string]any{"type": "system", "subtype": "api_retry", "attempt": i, "max_retries": 10,
					"retry_delay_ms": 550 << i, "error_status": nil, "error": "unknown", "session_id": "s-1"})
			}
		} else {
			out(map[string]any{"type": "thread.started", "thread_id": "t-1"})
			out(map[string]any{"type": "turn.started"})
			for i := 2; i <= 5; i++ {
				out(map[string]any{"type": "error", "message": fmt.Sprintf("Reconnecting... %d/5 (stream disconnected before completion: failed to lookup address information: Name does not resolve)", i)})
			}
			out(map[string]any{"type": "error", "message": "Reconnecting... waiting for network (Connection failed: error sending request)"})
		}
		time.Sleep(300 * time.Second)
	case "retrying":
		// Codex retrying without ever saying it waits for network.
		appendFile(filepath.Join(os.Getenv("OSF_FAKE_DIR"), "pids"), fmt.Sprintf("%d\n", os.Getpid()))
		out(map[string]any{"type": "turn.started"})
		out(map[string]any{"type": "error", "message": "Reconnecting... 2/5 (stream disconnected before completion: Connection refused (os error 111))"})
		time.Sleep(300 * time.Second)
	case "hang":
		child := exec.Command("sleep", "300")
		if err := child.Start(); err != nil {
			return 9
		}
		appendFile(filepath.Join(os.Getenv("OSF_FAKE_DIR"), "pids"), fmt.Sprintf("%d\n%d\n", os.Getpid(), child.Process.Pid))
		out(map[string]any{"type": "system", "subtype": "init", "session_id": "s-1"})
		time.Sleep(300 * time.Second)
	}
	return 0
}

func appendFile(p, s string) {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		f.WriteString(s) //nolint:errcheck // test helper
		f.Close()
	}
}

// alive reports whether pid is a live (non-zombie) process.
func alive(pid int) bool { return procs.Alive(pid) }
