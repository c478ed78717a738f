package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/appdir"
)

// `osfoundry records`: a create prints the new id on stdout, list and show
// read back what was made, and a status outside the channel's list is
// refused with the list to pick from.
func TestRecordsCommand(t *testing.T) {
	t.Setenv(appdir.EnvHome, t.TempDir())
	_, ws, _ := runCLI(t, "notes", "workspace-create", "Team")
	ws = strings.TrimSpace(ws)
	_, proj, _ := runCLI(t, "notes", "project-create", ws, "Website")
	proj = strings.TrimSpace(proj)

	code, ch, errs := runCLI(t, "records", "channel-create", ws, "Pages", "--project", proj, "--statuses", "Draft, Review,Ready")
	if code != 0 || !strings.HasPrefix(ch, "rc-") {
		t.Fatalf("channel-create: %d %q %s", code, ch, errs)
	}
	ch = strings.TrimSpace(ch)
	code, item, errs := runCLI(t, "records", "add", ch, "--title", "Pricing page", "--body", "Plans and prices")
	if code != 0 || !strings.HasPrefix(item, "rec-") {
		t.Fatalf("add: %d %q %s", code, item, errs)
	}
	item = strings.TrimSpace(item)

	_, out, _ := runCLI(t, "records", "show", ch, item)
	var it struct {
		Title   string         `json:"title"`
		Status  string         `json:"status"`
		Version int64          `json:"version"`
		Fields  map[string]any `json:"fields"`
	}
	if err := json.Unmarshal([]byte(out), &it); err != nil {
		t.Fatalf("show: %v %s", err, out)
	}
	if it.Title != "Pricing page" || it.Status != "Draft" || it.Version != 1 || it.Fields["body"] != "Plans and prices" {
		t.Fatalf("show = %+v, want the title, the first status and the body", it)
	}
	if _, out, _ = runCLI(t, "records", "list"); !strings.Contains(out, ch) || !strings.Contains(out, "Draft,Review,Ready") || !strings.Contains(out, "Pages") {
		t.Fatalf("list of channels: %s", out)
	}
	if _, out, _ = runCLI(t, "records", "list", ch); !strings.Contains(out, item) || !strings.Contains(out, "Pricing page") {
		t.Fatalf("list of items: %s", out)
	}

	cases := []struct {
		name     string
		args     []string
		contains string
	}{
		{"status outside the list", []string{"add", ch, "--title", "Blog", "--status", "Shipped"},
			`status "Shipped" is not one of this channel's statuses (Draft, Review, Ready)`},
		{"no title", []string{"add", ch}, "want one CHANNEL and --title"},
		{"unknown channel", []string{"add", "rc-nope", "--title", "x"}, "not found"},
		{"unknown workspace", []string{"channel-create", "ws-nope", "Pages"}, "osfoundry notes workspaces"},
		{"status twice", []string{"channel-create", ws, "Dup", "--statuses", "a,a"}, `status "a" is listed twice`},
		{"unknown item", []string{"show", ch, "rec-nope"}, "not found"},
		{"unknown subcommand", []string{"drop"}, "known: channel-create, add, list, show"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"records"}, c.args...)...)
			if code == 0 || !strings.Contains(errs, c.contains) {
				t.Fatalf("code %d, output %s %s; want a failure saying %q", code, out, errs, c.contains)
			}
		})
	}
}
