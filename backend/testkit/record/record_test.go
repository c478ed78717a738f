package record

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
	"github.com/osfoundry/desktop/backend/testkit/fixtures"
)

// Live: the recorder's flows still drive the installed CLIs through every
// state (a new CLI release that changes a prompt fails here first). Records
// the default renderer of each agent into a temp folder; `make fixtures`
// records all of them into testdata.
func TestLiveRecordTUIs(t *testing.T) {
	for _, job := range Jobs() {
		if job.Name != "claude" && job.Name != "codex" {
			continue
		}
		t.Run(job.Name, func(t *testing.T) {
			if _, ok := agentbin.Find(job.Agent); !ok {
				t.Skip(agentbin.SkipMessage(job.Agent))
			}
			version, err := agentbin.Version(agentbin.Packages[job.Agent])
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			r, err := NewRun(out, t.TempDir(), t.Logf)
			if err != nil {
				t.Fatal(err)
			}
			if err := job.Record(r, job.Name+"-"+version); err != nil {
				t.Fatal(err)
			}
			raws, err := fixtures.RawsIn(out)
			if err != nil {
				t.Fatal(err)
			}
			states := map[string]bool{}
			for _, x := range raws {
				states[x.State] = true
				if st, err := os.Stat(x.Path); err != nil || st.Size() == 0 {
					t.Errorf("%s: empty recording", x.Name)
				}
			}
			for _, s := range []string{fixtures.Idle, fixtures.Working, fixtures.Blocked, fixtures.AfterAnswer,
				fixtures.Interrupted, fixtures.Exited} {
				if !states[s] {
					t.Errorf("no %s recording", s)
				}
			}
			if m, _ := filepath.Glob(filepath.Join(out, "stores", "*", "*")); len(m) == 0 {
				t.Error("no session store copied")
			}
		})
	}
}
