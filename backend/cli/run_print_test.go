package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/orchestrate"
)

// What `osfoundry run` prints of a run or a job is the agent's to choose
// (the answer, tool names, a step's progress and error) or the job file's
// (step ids): escapes in any of them reach the terminal shown, never
// obeyed. Line breaks of an answer stay.
func TestRunPrintsAgentTextEscaped(t *testing.T) {
	answer := "first line\n" + hostile + "\x9b31m\x9d0;t\x07"
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb}
	printRunResult(env, "cli:claude:agent", agentcli.Result{Text: answer, Branch: "osf/run-1" + osc0, Repo: "/r", DiffStat: " a.go | 2 +-\n" + osc52})

	st := orchestrate.Status{Kind: "graph", ID: "job-1", State: orchestrate.StateDone, Note: osc0,
		Steps: []orchestrate.Step{{ID: "build" + osc52, Role: "Worker", State: orchestrate.StateDone, Progress: "Using " + osc0 + "Bash", Answer: answer}}}
	errb.WriteString(stepLine(st.Steps[0]) + "\n")
	printJobResult(env, st)

	for name, got := range map[string]string{"stdout": out.String(), "stderr": errb.String()} {
		for _, raw := range []string{"\x1b", "\x07", "\u202e", "\xff", "\r", "\u009b", "\u009d"} {
			if strings.Contains(got, raw) {
				t.Errorf("%s carries the raw %q:\n%q", name, raw, got)
			}
		}
	}
	if !strings.Contains(out.String(), "first line\n") || !strings.Contains(out.String(), `\x1b]52;c;`) || !strings.Contains(out.String(), `\x9b31m`) {
		t.Errorf("the answer should keep its lines and show the escapes: %q", out.String())
	}
	if !strings.Contains(errb.String(), `· [build\x1b]52;`) || !strings.Contains(errb.String(), `Using \x1b]0;pwned\x07Bash`) {
		t.Errorf("progress lines should show ids and tool names escaped: %q", errb.String())
	}
}

// JSON output escapes DEL and the C1 controls too (encoding/json leaves
// them raw), and still decodes to the exact text.
func TestJSONOutputEscapesC1AndDEL(t *testing.T) {
	in := map[string]string{"t": "a\u009b31m\u009d0;x\u0007b\x7fc\u0080\u009fé€"}
	var out bytes.Buffer
	if err := writeJSON(&out, in); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, raw := range []string{"\u009b", "\u009d", "\x7f", "\u0080", "\u009f"} {
		if strings.Contains(got, raw) {
			t.Errorf("JSON carries the raw %q: %q", raw, got)
		}
	}
	for _, esc := range []string{`\u009b`, `\u009d`, `\u007f`, `\u0080`, `\u009f`, "é€"} {
		if !strings.Contains(got, esc) {
			t.Errorf("JSON lacks %q: %q", esc, got)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back["t"] != in["t"] {
		t.Errorf("the JSON decodes to %q (%v), want %q", back["t"], err, in["t"])
	}
}
