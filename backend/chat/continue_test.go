package chat

import (
	"context"
	"errors"
	"github.com/osfoundry/desktop/backend/runs"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// The continued chat shows the session's earlier conversation above its
// own turns; the first task still goes to the CLI alone (the forked
// session holds the history), and a session whose history cannot be read
// still opens.
func TestContinueHereShowsTheEarlierConversation(t *testing.T) {
	r := newRig(t, "ok", "Continuing.")
	ctx := context.Background()
	_, err := r.svc.Roles().SetRoleModel(ctx, "Worker", "cli:claude:agent")
	must(t, err)
	const id = "0d5b7c1e-1111-2222-3333-444455556666"
	var asked []string
	r.svc.SetHistory(func(_ context.Context, agent, sessionID string) ([]agentcli.Turn, error) {
		asked = append(asked, agent+" "+sessionID)
		if sessionID != id {
			return nil, errors.New("no such session")
		}
		return []agentcli.Turn{{Role: "user", Text: "Why does a retry charge twice?"}, {Role: "assistant", Text: "The retry makes a second intent."}}, nil
	})
	c, err := r.svc.ContinueHere(ctx, "claude", id, r.folder, "Checkout")
	must(t, err)
	d, err := r.svc.GetChat(ctx, c.ID)
	must(t, err)
	var got []string
	for _, m := range d.Messages {
		got = append(got, m.Role+": "+m.Text)
	}
	want := []string{"user: Why does a retry charge twice?", "assistant: The retry makes a second intent."}
	if !slices.Equal(got, want) || !slices.Equal(asked, []string{"claude " + id}) {
		t.Fatalf("messages %q (asked %q), want %q", got, asked, want)
	}
	if d.Chat.State != runs.StateIdle {
		t.Errorf("state %s, want idle until the user writes", d.Chat.State)
	}
	run, err := r.svc.Send(ctx, c.ID, "keep going")
	must(t, err)
	r.svc.Wait(run.ID)
	argv := r.lastArgv(t)
	if i := slices.Index(argv, "-p"); i < 0 || strings.Contains(argv[i+1], "retry") || !strings.Contains(argv[i+1], "keep going") {
		t.Errorf("the prompt repeats the history the forked session holds: %q", argv)
	}
	if !slices.Contains(argv, "--fork-session") {
		t.Errorf("argv %q: the first task must fork the user's session", argv)
	}

	// The next task continues the fork the first one made, in place.
	if d, _ := r.svc.GetChat(ctx, c.ID); d.Chat.CLISession != "sess-1" {
		t.Fatalf("the chat continues %q, want the fork sess-1", d.Chat.CLISession)
	}
	run, err = r.svc.Send(ctx, c.ID, "and the tests?")
	must(t, err)
	r.svc.Wait(run.ID)
	argv = r.lastArgv(t)
	if i := slices.Index(argv, "--resume"); i < 0 || argv[i+1] != "sess-1" || slices.Contains(argv, "--fork-session") {
		t.Errorf("second task argv %q, want --resume sess-1 without a new fork", argv)
	}

	other, err := r.svc.ContinueHere(ctx, "claude", "1d5b7c1e-1111-2222-3333-444455556666", r.folder, "")
	must(t, err)
	if d, _ := r.svc.GetChat(ctx, other.ID); len(d.Messages) != 0 {
		t.Errorf("unreadable history gave messages %+v", d.Messages)
	}
}
