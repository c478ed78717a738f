package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// useEnv makes the process environment the sandbox's (the commands read
// the real environment, as the shipped binary does).
func useEnv(t *testing.T, e *agentenv.Env) {
	t.Helper()
	for _, kv := range e.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("OSFOUNDRY_HOME", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-must-be-removed")
}

func TestLiveRunCommand(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.ClaudeBash("echo run-cmd-$((40+2))", "marker"), fakemodel.Text("The marker is run-cmd-42."))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	useEnv(t, e)
	var out, errb bytes.Buffer
	code := Run(&Env{Stdout: &out, Stderr: &errb}, []string{"run", "--model", "cli:claude:agent", "--folder", e.Work, "--", "--print the \"marker\"\nnow"})
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, errb.String())
	}
	if out.String() != "The marker is run-cmd-42.\n" {
		t.Errorf("stdout = %q", out.String())
	}
	if !strings.Contains(errb.String(), "· Using Bash — {\"command\":\"echo run-cmd-$((40+2))\"") || !strings.Contains(errb.String(), "cost: subscription") {
		t.Errorf("stderr = %s", errb.String())
	}
	main := srv.MainRequests()
	if len(main) != 2 || !strings.Contains(string(main[0].Body), `--print the \"marker\"\nnow`) {
		t.Fatalf("the task did not reach the model verbatim (%d requests)", len(main))
	}
	if strings.Contains(main[0].Header.Get("X-Api-Key"), "must-be-removed") {
		t.Error("ANTHROPIC_API_KEY reached the model")
	}
}

func TestRunCommandRefusals(t *testing.T) {
	t.Setenv("OSFOUNDRY_HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "--model", "cli:codex", "x"}, 1, "codex has no tool-less chat mode — use 'cli:codex:agent' for an autonomous run instead."},
		{[]string{"run", "--model", "cli:claude", "--role", "Worker", "x"}, 1, "use 'cli:claude:agent'"},
		{[]string{"run", "--model", "cli:claude:agent", "--folder", t.TempDir(), "x"}, 1, "Claude Code is not installed"},
		{[]string{"run", "--role", "Worker", "x"}, 1, "Pipeline → Pipeline Roles"},
		{[]string{"run", "--model", "cli:claude:agent"}, 2, "no task"},
		{[]string{"run", "--role", "Janitor", "x"}, 2, "unknown role"},
		{[]string{"verify", "gemini"}, 2, "claude or codex"},
		{[]string{"verify", "codex"}, 1, "Codex is not installed"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := Run(&Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}, tc.args)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: exit %d stderr %q, want %d and %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}

func TestLiveVerifyCommand(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("ok"))
	e := agentenv.Claude(t, srv.URL)
	useEnv(t, e)
	var out, errb bytes.Buffer
	if code := Run(&Env{Stdout: &out, Stderr: &errb}, []string{"verify", "claude"}); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	if !strings.HasPrefix(out.String(), "✓ Signed in (Claude Code 2.1.328, ") || !strings.Contains(out.String(), "API key in env: [ANTHROPIC_API_KEY]") {
		t.Errorf("stdout = %q", out.String())
	}
}
