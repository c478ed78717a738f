package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

func jobFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "job.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Bad job files are refused as a whole with what to fix; nothing starts
// (no CLI is even installed here: a started child would fail otherwise).
func TestRunJobRefusals(t *testing.T) {
	t.Setenv("OSFOUNDRY_HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	folder := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"cycle", []string{"--graph", jobFile(t, `{"steps":[{"id":"a","role":"Worker","prompt":"x","depends_on":["b"]},{"id":"b","role":"Worker","prompt":"y","depends_on":["a"]}]}`)},
			"the graph has a cycle: a → b → a"},
		{"unknown role", []string{"--fleet", jobFile(t, `{"tasks":[{"role":"Janitor","prompt":"sweep"}]}`)}, "task 1: unknown role"},
		{"unknown model", []string{"--fleet", jobFile(t, `{"tasks":[{"role":"Worker","model":"gpt-9","prompt":"x"}]}`)}, `task 1: unknown model "gpt-9"`},
		{"loop without a stop", []string{"--loop", jobFile(t, `{"role":"Worker","prompt":"polish"}`)}, "a loop needs a stop condition"},
		{"typo in a field", []string{"--fleet", jobFile(t, `{"tasks":[{"role":"Worker","promt":"x"}]}`)}, `unknown field "promt"`},
		{"two kinds", []string{"--fleet", "a.json", "--graph", "b.json"}, "give one of --fleet, --loop or --graph, not --fleet and --graph"},
		{"a task besides the file", []string{"--fleet", "a.json", "do it"}, "--fleet takes its tasks from the file"},
		{"missing file", []string{"--graph", filepath.Join(folder, "none.json")}, "reading " + filepath.Join(folder, "none.json")},
		{"max without a stop", []string{"--max", "3", "polish"}, "--max needs --until or --count"},
		{"loop flags on a fleet", []string{"--count", "2", "--fleet", "a.json"}, "--until, --count and --max are for a loop"},
		{"inline loop without a task", []string{"--count", "2"}, "no task"},
		{"inline loop over the cap", []string{"--count", "50", "polish"}, "a loop runs at most 20 iterations (asked for 50)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"run", "--model", "cli:claude:agent", "--folder", folder}, tc.args...)
			code := Run(&Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}, args)
			if code != 2 || !strings.Contains(errb.String(), tc.want) || strings.Contains(errb.String(), "started") {
				t.Fatalf("exit %d stderr %q, want 2 and %q", code, errb.String(), tc.want)
			}
		})
	}
}

// A fleet file runs its tasks on the real Claude Code against the fake
// model: a line per child change on stderr, each child's answer on
// stdout, exit 0 once every child is done.
func TestLiveRunFleetFile(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.ClaudeBash("echo fleet-$((40+2))", "marker"), fakemodel.Text("answer one"), fakemodel.Text("answer two"))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	useEnv(t, e)
	file := jobFile(t, `{"title":"Two notes","tasks":[
		{"role":"Compaction","prompt":"first"},
		{"role":"Compaction","prompt":"second"}],
		"limits":{"concurrency":2}}`)
	var out, errb bytes.Buffer
	code := Run(&Env{Stdout: &out, Stderr: &errb}, []string{"run", "--model", "cli:claude:agent", "--folder", e.Work, "--fleet", file})
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr: %s", code, out.String(), errb.String())
	}
	o := out.String()
	if !strings.Contains(o, "## 1 · Compaction · done\n") || !strings.Contains(o, "## 2 · Compaction · done\n") ||
		!strings.Contains(o, "answer one") || !strings.Contains(o, "answer two") {
		t.Errorf("stdout = %s", o)
	}
	// One child ran Bash first: its progress line shows on stderr.
	if e := errb.String(); !strings.Contains(e, "started: 2 children") || !strings.Contains(e, "Compaction] running — Using Bash — {\"command\":\"echo fleet-$((40+2))\"") || !strings.Contains(e, ": done · cost: subscription") {
		t.Errorf("stderr = %s", e)
	}
}

// A loop given on the command line: each iteration sees the last result.
func TestLiveRunInlineLoop(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("draft one"), fakemodel.Text("draft two"))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	useEnv(t, e)
	var out, errb bytes.Buffer
	code := Run(&Env{Stdout: &out, Stderr: &errb}, []string{"run", "--model", "cli:claude:agent", "--folder", e.Work, "--role", "Compaction", "--count", "2", "write a headline"})
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, errb.String())
	}
	if o := out.String(); !strings.Contains(o, "## 1 · Compaction · done\ndraft one") || !strings.Contains(o, "## 2 · Compaction · done\ndraft two") {
		t.Errorf("stdout = %s", o)
	}
	if main := srv.MainRequests(); len(main) != 2 || !strings.Contains(string(main[1].Body), "draft one") {
		t.Errorf("the second iteration did not see the first's result (%d requests)", len(main))
	}
}

// A graph file on the real Claude Code: the second step starts after the
// first and is given its answer.
func TestLiveRunGraphFile(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("facts: the sky is blue"), fakemodel.Text("headline: Blue skies"))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	useEnv(t, e)
	file := jobFile(t, `{"task":"Write a headline.","steps":[
		{"id":"facts","role":"Compaction","prompt":"gather the facts"},
		{"id":"headline","role":"Compaction","prompt":"write it","depends_on":["facts"]}]}`)
	var out, errb bytes.Buffer
	code := Run(&Env{Stdout: &out, Stderr: &errb}, []string{"run", "--model", "cli:claude:agent", "--folder", e.Work, "--graph", file})
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, errb.String())
	}
	if o := out.String(); !strings.Contains(o, "## facts · Compaction · done\nfacts: the sky is blue") || !strings.Contains(o, "## headline · Compaction · done\nheadline: Blue skies") {
		t.Errorf("stdout = %s", o)
	}
	main := srv.MainRequests()
	if len(main) != 2 || !strings.Contains(string(main[1].Body), "facts: the sky is blue") || !strings.Contains(string(main[1].Body), "Write a headline.") {
		t.Errorf("the second step was not given the first's answer and the graph's task (%d requests)", len(main))
	}
}
