package msgres_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/messages"
)

var bg = context.Background()

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestChannelMembershipOverTheWire drives the two message tools with the
// Go SDK client against the real Connected endpoint: a project opens only
// its discussion channel, other channels need an explicit invite, a
// private channel only its owner's; posts carry the connection's name and
// an idempotency key never posts twice.
func TestChannelMembershipOverTheWire(t *testing.T) {
	w := newWorld(t)
	svc, ms, discA, discB := w.svc, w.msgs, w.discA, w.discB
	general, err := ms.CreateChannel(bg, messages.NewChannel{Workspace: "ws-acme", Project: "proj-a", Name: "general"})
	must(t, err)
	secret, err := ms.CreateChannel(bg, messages.NewChannel{Workspace: "ws-acme", Project: "proj-a", Name: "secret", Private: true, Owner: "alice"})
	must(t, err)
	pending, err := svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	call := w.goClient(t, "Claude chat")
	list := func(ch string) map[string]any { return map[string]any{"channel_id": ch} }
	post := func(ch, text, key string) map[string]any {
		return map[string]any{"channel_id": ch, "text": text, "idempotency_key": key}
	}
	steps := []struct {
		name      string
		owner     func()
		tool      string
		args      map[string]any
		wantError bool
		want      string
	}{
		{"project A added: its discussion channel is listed", func() { must(t, svc.AddProject(bg, pending.ID, "proj-a")) },
			"list_project_resources", map[string]any{}, false, discA.ID},
		{"discussion channel of a granted project reads", nil, "list_channel_messages", list(discA.ID), false, `"messages": []`},
		{"and takes a post", nil, "post_channel_message", post(discA.ID, "Refunds take 5 days.", "k1"), false, `"author_name": "Claude chat"`},
		{"a retry with the same key replays", nil, "post_channel_message", post(discA.ID, "Refunds take 5 days.", "k1"), false, `"replayed": true`},
		{"the same key for another post is refused", nil, "post_channel_message", post(discA.ID, "other", "k1"), true, "already used"},
		{"another project's discussion channel is closed", nil, "list_channel_messages", list(discB.ID), true, "not_invited"},
		{"a non-discussion channel of a granted project needs an invite", nil, "list_channel_messages", list(general.ID), true, "not_invited"},
		{"after the invite it opens", func() { must(t, svc.InviteChannel(bg, pending.ID, general.ID, connect.OwnerID)) },
			"post_channel_message", post(general.ID, "hi", "k2"), false, `"status": "posted"`},
		{"a private channel ignores another person's invite", func() { must(t, svc.InviteChannel(bg, pending.ID, secret.ID, connect.OwnerID)) },
			"list_channel_messages", list(secret.ID), true, "not_invited"},
		{"its owner's invite opens it", func() {
			must(t, svc.RemoveChannel(bg, pending.ID, secret.ID))
			must(t, svc.InviteChannel(bg, pending.ID, secret.ID, "alice"))
		}, "list_channel_messages", list(secret.ID), false, `"channel_name": "secret"`},
		{"an oversized post says the limit", nil, "post_channel_message", post(discA.ID, strings.Repeat("x", 4001), "k3"), true, "the limit is 4000"},
		{"an unknown channel is not found", nil, "list_channel_messages", list("ch_nope"), true, "not_found"},
	}
	for _, s := range steps {
		if s.owner != nil {
			s.owner()
		}
		text, isErr := call(s.tool, s.args)
		if isErr != s.wantError || !strings.Contains(text, s.want) {
			t.Fatalf("%s: got error=%v %s; want error=%v containing %q", s.name, isErr, text, s.wantError, s.want)
		}
	}
	got, err := ms.ListMessages(bg, discA.ID, 0, 0)
	must(t, err)
	if len(got) != 1 || got[0].AuthorKind != messages.AuthorAssistant || got[0].AuthorName != "Claude chat" {
		b, _ := json.Marshal(got)
		t.Fatalf("discussion channel holds %s; want the one post by Claude chat", b)
	}
}
