package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/appdir"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(&Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestConnectionsCommands(t *testing.T) {
	t.Setenv(appdir.EnvHome, t.TempDir())
	code, out, errs := runCLI(t, "connections", "add", "Claude", "Claude chat")
	if code != 0 || !strings.Contains(out, "Setup pending. This assistant cannot read or change anything yet.") {
		t.Fatalf("add: %d %s %s", code, out, errs)
	}
	id := strings.Fields(out)[0]
	steps := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"connections", "list"}, 0, "Claude chat"},
		{[]string{"connections", "add-project", id, "proj-a"}, 0, "added"},
		{[]string{"connections", "list"}, 0, "proj-a"},
		{[]string{"connections", "remove-project", id, "proj-a"}, 0, "removed"},
		{[]string{"connections", "remove-project", id, "proj-a"}, 2, "not found"},
		{[]string{"connections", "tools", id, "--off", "edit_note_tab"}, 0, "[ ]  edit_note_tab"},
		{[]string{"connections", "tools", id}, 0, "tools are on; turned off: edit_note_tab."},
		{[]string{"connections", "tools", id, "--only", "read_note_tab,edit_note_tab"}, 0, " tools are on: read_note_tab, edit_note_tab."},
		{[]string{"connections", "add", "Robot", "x"}, 2, "assistant must be one of"},
		{[]string{"connections", "revoke", id}, 0, "revoked"},
		{[]string{"connections", "list"}, 0, "Revoked."},
		{[]string{"connections", "role", "nobody", "ws-acme", "editor"}, 2, "not found"},
		{[]string{"connections", "role", "owner", "ws-acme", "boss"}, 2, "viewer, editor or owner"},
		{[]string{"connections", "users"}, 0, "admin"},
		{[]string{"connections", "signin-link"}, 2, "osfoundry serve"},
		{[]string{"connections", "signin-link", "--url", "http://127.0.0.1:8765"}, 0, "http://127.0.0.1:8765/oauth/signin?token="},
		{[]string{"connections", "proposals"}, 0, "TITLE"},
		{[]string{"connections", "approve", "prop_nope"}, 2, "not found"},
		{[]string{"connections", "frobnicate"}, 2, "unknown subcommand"},
		{[]string{"serve", "--addr", "0.0.0.0:8765"}, 2, "--public-url"},
		{[]string{"serve", "--public-url", "http://team.example.com"}, 2, "https"},
	}
	for _, s := range steps {
		code, out, errs := runCLI(t, s.args...)
		if len(s.args) > 1 && s.args[1] == "tools" && strings.Contains(out, "All supported tools are on") {
			t.Errorf("%v says every tool is on:\n%s", s.args, out)
		}
		if code != s.code || !strings.Contains(out+errs, s.contains) {
			t.Errorf("%v: %d\n%s%s\nwant %d containing %q", s.args, code, out, errs, s.code, s.contains)
		}
	}
	_, out, _ = runCLI(t, "connections", "add-user", "Dana")
	user := strings.TrimSpace(out)
	if code, _, errs := runCLI(t, "connections", "role", user, "ws-acme", "proj-a", "editor"); code != 0 {
		t.Fatalf("role: %s", errs)
	}
	if _, out, _ := runCLI(t, "connections", "users"); !strings.Contains(out, "ws-acme/proj-a=editor") {
		t.Fatalf("users: %s", out)
	}
}

// A misspelt tool name or a stray word is an error that says what is
// accepted, and changes nothing: before, "--off typo" succeeded silently
// and a word before the flags made them ignored.
func TestConnectionsToolsRefusesTyposAndStrayWords(t *testing.T) {
	t.Setenv(appdir.EnvHome, t.TempDir())
	code, out, errs := runCLI(t, "connections", "add", "Claude", "Claude chat")
	if code != 0 {
		t.Fatalf("add: %d %s %s", code, out, errs)
	}
	id := strings.Fields(out)[0]
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown tool in --off", []string{"--off", "edit_note_tab,edit_notes_tab"}, []string{`unknown tool edit_notes_tab`, "read_note_tab", "edit_note_tab"}},
		{"unknown tool in --only", []string{"--only", "raed_note_tab"}, []string{"unknown tool raed_note_tab", "the tools are:"}},
		{"stray word before the flags", []string{"now", "--off", "edit_note_tab"}, []string{`unexpected "now --off edit_note_tab"`, "--only a,b or --off a,b"}},
		{"unknown flag", []string{"--of", "edit_note_tab"}, []string{"-of", "--only a,b or --off a,b"}},
	} {
		code, out, errs := runCLI(t, append([]string{"connections", "tools", id}, c.args...)...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2\n%s%s", c.name, code, out, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr %q lacks %q", c.name, errs, w)
			}
		}
	}
	// Nothing was turned off by the refused commands.
	if code, out, _ := runCLI(t, "connections", "tools", id); code != 0 || !strings.Contains(out, "All supported tools are on") {
		t.Errorf("after refused commands: %d\n%s", code, out)
	}
}
