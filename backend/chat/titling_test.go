package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/runs"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

func TestCleanTitle(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "Release plan for Friday", "Release plan for Friday"},
		{"quotes and full stop", `"Release plan for Friday."`, "Release plan for Friday"},
		{"curly quotes", "“Fix the login bug”", "Fix the login bug"},
		{"apostrophe stays", "Don't break the build", "Don't break the build"},
		{"label and markdown", "**Title:** # Refactor the `parser`", "Refactor the parser"},
		{"first non-empty line", "\n\n  Migrate the database  \nThis title says what the chat is about.", "Migrate the database"},
		{"six words at most", "one two three four five six seven eight", "one two three four five six"},
		{"control characters", "Plan\x1b[31m the\x07 release\u200b", "Plan[31m the release"},
		{"tabs and runs of spaces", "Plan\t\tthe    release", "Plan the release"},
		{"length capped", strings.Repeat("x", 200), strings.Repeat("x", maxTitleRunes-1) + "…"},
		{"long words capped at a word", "Supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis", "Supercalifragilisticexpialidocious…"},
		{"nothing left", ` "" ... `, ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CleanTitle(tc.in); got != tc.want {
				t.Errorf("CleanTitle(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// waitTitle polls the chat until its title is want or a generous deadline
// passes, and returns the last title seen.
func waitTitle(t *testing.T, svc *Service, chatID, want string) string {
	t.Helper()
	var got string
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		d, err := svc.GetChat(context.Background(), chatID)
		must(t, err)
		if got = d.Chat.Title; got == want {
			break
		}
	}
	return got
}

// A new chat is named by the Titling role after its first answer; the
// rename reaches the chat list through the change event; later answers
// keep the title.
func TestTitlingNamesTheChatAfterItsFirstAnswer(t *testing.T) {
	r, _ := newRoleRig(t, "The plan is ready", "Friday release plan", "unused")
	ctx := context.Background()
	_, err := r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	_, err = r.svc.Roles().SetRoleModel(ctx, "Titling", agentcli.ModelClaudeChat)
	must(t, err)
	c, err := r.svc.CreateChat(ctx, NewChat{Title: "find the release plan and tell me"})
	must(t, err)
	run, err := r.svc.Send(ctx, c.ID, "find the release plan and tell me\nwith details")
	must(t, err)
	r.svc.Wait(run.ID)
	if got := waitTitle(t, r.svc, c.ID, "Friday release plan"); got != "Friday release plan" {
		t.Fatalf("title = %q, want the Titling role's answer", got)
	}
	calls := r.callsWith(t, "title of at most six words")
	if len(calls) != 1 {
		t.Fatalf("%d Titling calls, want 1", len(calls))
	}
	argv := strings.Join(calls[0], "\n")
	if !strings.Contains(argv, "--disallowedTools\n*") || !strings.Contains(argv, "find the release plan and tell me") || !strings.Contains(argv, "The plan is ready") {
		t.Errorf("the Titling run is not a tool-less run over the first task and answer:\n%s", argv)
	}
	// The list (and the board) got a change event for the rename.
	found := false
	for _, ch := range mustChats(t, r.svc) {
		found = found || (ch.ID == c.ID && ch.Title == "Friday release plan")
	}
	if !found {
		t.Error("the chat list does not show the new title")
	}
	// A second answer does not rename the chat again.
	run, err = r.svc.Send(ctx, c.ID, "and the checklist?")
	must(t, err)
	r.svc.Wait(run.ID)
	r.svc.titling.Wait()
	if n := len(r.callsWith(t, "title of at most six words")); n != 1 {
		t.Errorf("%d Titling calls after the second answer, want still 1", n)
	}
}

// With no model assigned to Titling, the default that Pipeline Roles
// shows for it (Claude Code's chat mode here) names the chat.
func TestTitlingWithTheDefaultRolesNamesTheChat(t *testing.T) {
	r, _ := newRoleRig(t, "The plan is ready", "Friday release plan", "unused")
	ctx := context.Background()
	_, err := r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	rs, err := r.svc.Roles().Roles(ctx)
	must(t, err)
	for _, ro := range rs {
		if ro.Name == "Titling" && (!ro.Default || ro.Model != agentcli.ModelClaudeChat) {
			t.Fatalf("Pipeline Roles shows Titling as %+v, want the default %s", ro, agentcli.ModelClaudeChat)
		}
	}
	c, err := r.svc.CreateChat(ctx, NewChat{Title: "find the release plan"})
	must(t, err)
	run, err := r.svc.Send(ctx, c.ID, "find the release plan")
	must(t, err)
	r.svc.Wait(run.ID)
	if got := waitTitle(t, r.svc, c.ID, "Friday release plan"); got != "Friday release plan" {
		t.Fatalf("title = %q after %d Titling calls, want the default Titling model's answer", got, len(r.callsWith(t, fakemodel.TitleMarker)))
	}
}

// The fake model tells the Titling role's requests from a chat's turns by
// the role's fixed prompt text; the two must not drift apart, or titling
// runs would take answers scripted for the chat in the browser tests.
func TestTitlingPromptCarriesTheFakeModelsMarker(t *testing.T) {
	role, err := roles.LookupRole("Titling")
	must(t, err)
	if !strings.Contains(role.Prompt, fakemodel.TitleMarker) {
		t.Fatalf("the Titling prompt %q lacks %q", role.Prompt, fakemodel.TitleMarker)
	}
}

// A Titling run that fails, or answers nothing usable, keeps the first-line
// title and logs why; the chat's own run is done either way.
func TestTitlingFailureKeepsTheFirstLine(t *testing.T) {
	for _, tc := range []struct{ name, title, fail, logged string }{
		{"the CLI fails", "Friday release plan", "yes", "the title model is overloaded"},
		{"an empty answer", `...`, "", "no usable title"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, l := newRoleRig(t, "The plan is ready", tc.title, "unused")
			if tc.fail != "" {
				must(t, writeFile(r.dir, "title-fails", ""))
			}
			ctx := context.Background()
			_, err := r.svc.Roles().AddFolder(ctx, r.folder)
			must(t, err)
			_, err = r.svc.Roles().SetRoleModel(ctx, "Titling", agentcli.ModelClaudeChat)
			must(t, err)
			c, err := r.svc.CreateChat(ctx, NewChat{Title: "find the release plan"})
			must(t, err)
			run, err := r.svc.Send(ctx, c.ID, "find the release plan")
			must(t, err)
			r.svc.Wait(run.ID)
			r.svc.titling.Wait()
			d, err := r.svc.GetChat(ctx, c.ID)
			must(t, err)
			if d.Chat.Title != "find the release plan" || d.Runs[0].State != runs.StateDone {
				t.Fatalf("title %q, run %s", d.Chat.Title, d.Runs[0].State)
			}
			if n := len(r.callsWith(t, "title of at most six words")); n != 1 {
				t.Fatalf("%d Titling calls, want 1", n)
			}
			if !strings.Contains(l.text(), "titling chat "+c.ID) || !strings.Contains(l.text(), tc.logged) {
				t.Errorf("log = %q, want why titling failed", l.text())
			}
		})
	}
}

func mustChats(t *testing.T, s *Service) []Chat {
	t.Helper()
	cs, err := s.Chats(context.Background())
	must(t, err)
	return cs
}
