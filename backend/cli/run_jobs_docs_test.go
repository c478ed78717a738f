package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/roles"
)

// The example files in docs/orchestration.md are read by the same strict
// decoder as `osfoundry run` and pass the checks a job gets before it
// starts, so the documented format is the one the command takes.
func TestDocumentedJobFilesAreValid(t *testing.T) {
	doc, err := os.ReadFile("../../docs/orchestration.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json (fleet|loop|graph)\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	seen := map[string]bool{}
	env := &Env{}
	for _, b := range blocks {
		kind, body := b[1], b[2]
		seen[kind] = true
		path := jobFile(t, body)
		switch kind {
		case "fleet":
			var r orchestrate.FleetRequest
			if err := readJobFile(env, path, &r); err != nil {
				t.Fatal(err)
			}
			if len(r.Tasks) == 0 {
				t.Fatal("the fleet example has no tasks")
			}
			for _, task := range r.Tasks {
				if _, err := roles.LookupRole(task.Role); err != nil || strings.TrimSpace(task.Task) == "" {
					t.Errorf("fleet task %+v: %v", task, err)
				}
			}
		case "loop":
			var r orchestrate.LoopRequest
			if err := readJobFile(env, path, &r); err != nil {
				t.Fatal(err)
			}
			if _, err := roles.LookupRole(r.Role); err != nil || r.Until == "" && r.Count == 0 {
				t.Errorf("loop example %+v: %v", r, err)
			}
		case "graph":
			var r orchestrate.GraphRequest
			if err := readJobFile(env, path, &r); err != nil {
				t.Fatal(err)
			}
			if _, err := (orchestrate.DAG{Steps: r.Steps}).Validate(); err != nil {
				t.Errorf("graph example: %v", err)
			}
			if len(r.Steps[1].DependsOn) == 0 {
				t.Error("depends_on in the example was not read")
			}
		}
	}
	for _, k := range []string{"fleet", "loop", "graph"} {
		if !seen[k] {
			t.Errorf("docs/orchestration.md has no %s example", k)
		}
	}
}
