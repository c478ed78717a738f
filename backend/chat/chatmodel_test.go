package chat

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// A role's model with a CLI model runs `claude --model`; a chat's own pick
// wins over it from the next task; the run and the chat's card show it.
func TestChatModelReachesTheArgv(t *testing.T) {
	r := newRig(t, "ok", "Done.")
	ctx := context.Background()
	c := chatWithWorker(t, r)
	_, err := r.svc.Roles().SetRoleModel(ctx, "Worker", "cli:claude:agent@sonnet")
	must(t, err)
	model := func() string {
		argv := r.lastArgv(t)
		if i := slices.Index(argv, "--model"); i >= 0 && i+1 < len(argv) {
			return argv[i+1]
		}
		return ""
	}
	run, err := r.svc.Send(ctx, c.ID, "first")
	must(t, err)
	r.svc.Wait(run.ID)
	if got := model(); got != "sonnet" || run.Model != "cli:claude:agent@sonnet" {
		t.Fatalf("the role's model: --model %q, run model %q", got, run.Model)
	}
	must(t, r.svc.SetChatModel(ctx, c.ID, "haiku"))
	if m, err := r.svc.ChatModel(ctx, c.ID); err != nil || m != "haiku" {
		t.Fatalf("ChatModel = %q %v", m, err)
	}
	run, err = r.svc.Send(ctx, c.ID, "second")
	must(t, err)
	r.svc.Wait(run.ID)
	if got := model(); got != "haiku" {
		t.Fatalf("the chat's own model: --model %q, want haiku", got)
	}
	if card := r.card(t, c.ID); card.Model != "haiku" {
		t.Errorf("card model %q, want haiku", card.Model)
	}
	if err := r.svc.SetChatModel(ctx, c.ID, "--dangerously-skip-permissions"); err == nil || !strings.Contains(err.Error(), "not a model name") {
		t.Errorf("a flag as a model: %v", err)
	}
	must(t, r.svc.SetChatModel(ctx, c.ID, ""))
	run, err = r.svc.Send(ctx, c.ID, "third")
	must(t, err)
	r.svc.Wait(run.ID)
	if got := model(); got != "sonnet" {
		t.Fatalf("back to the role's model: --model %q", got)
	}
}

// "Continue here" forks the person's own session and still runs the
// model picked for the chat.
func TestContinueHereKeepsTheChatModel(t *testing.T) {
	r := newRig(t, "ok", "Continuing.")
	ctx := context.Background()
	_, err := r.svc.Roles().SetRoleModel(ctx, "Worker", "cli:codex:agent") // the role runs the other CLI
	must(t, err)
	r.svc.SetHistory(func(context.Context, string, string) ([]agentcli.Turn, error) {
		return []agentcli.Turn{{Role: "user", Text: "earlier"}}, nil
	})
	c, err := r.svc.ContinueHere(ctx, "claude", "0d5b7c1e-1111-2222-3333-444455556666", r.folder, "Checkout")
	must(t, err)
	must(t, r.svc.SetChatModel(ctx, c.ID, "opus"))
	run, err := r.svc.Send(ctx, c.ID, "keep going")
	must(t, err)
	r.svc.Wait(run.ID)
	argv := r.lastArgv(t)
	if i := slices.Index(argv, "--model"); i < 0 || argv[i+1] != "opus" || !slices.Contains(argv, "--fork-session") {
		t.Fatalf("argv %q: want the fork of the session on --model opus", argv)
	}
}
