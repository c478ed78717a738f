package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/appdir"
)

// TestChannelsCommands: the owner creates, lists, posts to and reads
// Message channels; list shows the project's discussion channel; bad input
// says what to do.
func TestChannelsCommands(t *testing.T) {
	t.Setenv(appdir.EnvHome, t.TempDir())
	_, ws, _ := runCLI(t, "notes", "workspace-create", "Team")
	ws = strings.TrimSpace(ws)
	_, proj, errs := runCLI(t, "notes", "project-create", ws, "Launch")
	proj = strings.Fields(strings.TrimSpace(proj + " x"))[0]
	if proj == "x" {
		t.Fatalf("project-create: %s", errs)
	}
	code, out, errs := runCLI(t, "channels", "list", proj)
	if code != 0 || !strings.Contains(out, "discussion") {
		t.Fatalf("list: %d %s %s; want the discussion channel", code, out, errs)
	}
	disc := ""
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[2] == "discussion" {
			disc = f[0]
		}
	}
	code, out, errs = runCLI(t, "channels", "create", ws, "secret plans", "--project", proj, "--private")
	if code != 0 || !strings.Contains(out, "secret plans (private)") {
		t.Fatalf("create: %d %s %s", code, out, errs)
	}
	steps := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"channels", "list", proj}, 0, "secret plans"},
		{[]string{"channels", "post", disc, "Refunds take 5 days."}, 0, "posted msg_"},
		{[]string{"channels", "read", disc}, 0, "You: Refunds take 5 days."},
		{[]string{"channels", "post", disc, strings.Repeat("x", 4001)}, 2, "the limit is 4000"},
		{[]string{"channels", "post", disc, "  "}, 2, "empty"},
		{[]string{"channels", "read", "ch_nope"}, 2, "not found"},
		{[]string{"channels", "create", "ws-nope", "x"}, 2, "osfoundry notes workspaces"},
		{[]string{"channels", "create", ws, "x", "--project", "p-nope"}, 2, "is not in workspace"},
		{[]string{"channels", "create", ws}, 2, "usage: osfoundry channels"},
		{[]string{"channels", "read", disc, "--color"}, 2, "unknown flag --color"},
		{[]string{"channels", "list", "p-nope"}, 2, "not found"},
	}
	for _, s := range steps {
		code, out, errs := runCLI(t, s.args...)
		if code != s.code || !strings.Contains(out+errs, s.contains) {
			t.Errorf("%v: %d\n%s%s\nwant %d containing %q", s.args, code, out, errs, s.code, s.contains)
		}
	}
	_, out, _ = runCLI(t, "channels", "read", disc, "--json")
	var got []struct {
		Text       string `json:"text"`
		AuthorKind string `json:"author_kind"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 1 || got[0].Text != "Refunds take 5 days." || got[0].AuthorKind != "person" {
		t.Fatalf("read --json: %v %s", err, out)
	}
}
