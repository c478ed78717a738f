//go:build !windows

package terminal

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The New pane form's "Agent Client Protocol" choice: the pane runs this
// program's own ACP client (the test binary stands in for it, TestMain)
// with the chosen agent's adapter, found without any `osfoundry` command on
// PATH; the adapter's command is argv, never a shell line.
func TestACPPaneRunsTheAppsOwnClient(t *testing.T) {
	empty := t.TempDir() // PATH: no osfoundry, no adapter
	dir := t.TempDir()
	m := NewManager(nil)
	t.Cleanup(m.CloseAll)
	svc := NewService(m, func() []string { return []string{"PATH=" + empty, "HOME=" + dir, "TERM=xterm-256color"} })
	svc.exe = os.Args[0]

	info, err := svc.Create(CreateRequest{Dir: dir, ACP: &ACPRequest{Agent: "claude"}, Cols: 120, Rows: 20})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{os.Args[0], "acp", "--", "claude-agent-acp"}; !reflect.DeepEqual(info.Argv, want) {
		t.Errorf("argv %q, want %q", info.Argv, want)
	}
	// The app's client ran (not a shell saying osfoundry is not found) and
	// says what is missing.
	waitFor(t, "the client's word on the missing adapter", func() bool {
		return strings.Contains(strings.Join(strings.Fields(screenOf(t, m, info.ID)), " "), "claude-agent-acp not found on PATH: install it")
	})

	// Another agent: its command is split into words, nothing expanded.
	marker := filepath.Join(dir, "ran")
	other, err := svc.Create(CreateRequest{Dir: dir, ACP: &ACPRequest{Adapter: `"my adapter" --acp $(touch ` + marker + `)`}, Cols: 120, Rows: 20})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{os.Args[0], "acp", "--", "my adapter", "--acp", "$(touch", marker + ")"}; !reflect.DeepEqual(other.Argv, want) {
		t.Errorf("argv %q, want %q", other.Argv, want)
	}
	waitFor(t, "the client's word on the other adapter", func() bool {
		return strings.Contains(screenOf(t, m, other.ID), "my adapter not found on PATH")
	})
	if _, err := os.Stat(marker); err == nil {
		t.Error("the adapter's command went through a shell")
	}

	for _, c := range []struct {
		name string
		req  CreateRequest
		want string
	}{
		{"both", CreateRequest{Dir: dir, Command: "bash", ACP: &ACPRequest{Agent: "claude"}}, "either a command or an ACP agent"},
		{"unknown agent", CreateRequest{Dir: dir, ACP: &ACPRequest{Agent: "nope"}}, `unknown ACP agent "nope"`},
		{"no adapter", CreateRequest{Dir: dir, ACP: &ACPRequest{Adapter: "  "}}, "name the ACP agent's command"},
	} {
		if _, err := svc.Create(c.req); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if got := svc.ACPAgents(); len(got) < 2 || got[0].ID != "claude" || got[1].ID != "gemini" {
		t.Errorf("ACPAgents = %+v", got)
	}
}
