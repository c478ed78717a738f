package msgres_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
)

// TestListProjectResourcesTypeSearchAndChannels: list_project_resources
// filters by resource_type and by a case-insensitive search over titles,
// lists the project's Message channels this connection can open (the
// discussion channel, and other channels only once invited — a private one
// only by its owner), and refuses unknown arguments and unknown types with
// a tool error that names what is accepted.
func TestListProjectResourcesTypeSearchAndChannels(t *testing.T) {
	w := newWorld(t)
	_, err := w.notes.CreateNote(bg, notes.NewNote{ID: "note-a1", Workspace: "ws-acme", Project: "proj-a", Title: "Q3 Launch checklist"})
	must(t, err)
	_, err = w.notes.CreateKnowledgeBase(bg, "ws-acme", "proj-a", "kb-a", "Support articles")
	must(t, err)
	_, err = w.notes.CreateRecordChannel(bg, "ws-acme", "proj-a", "rc-a", "Pricing pages")
	must(t, err)
	_, err = w.notes.CreateNote(bg, notes.NewNote{ID: "note-b1", Workspace: "ws-acme", Project: "proj-b", Title: "Launch budget"})
	must(t, err)
	general, err := w.msgs.CreateChannel(bg, messages.NewChannel{Workspace: "ws-acme", Project: "proj-a", Name: "General"})
	must(t, err)
	secret, err := w.msgs.CreateChannel(bg, messages.NewChannel{Workspace: "ws-acme", Project: "proj-a", Name: "secret", Private: true, Owner: "alice"})
	must(t, err)
	conn, err := w.svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	must(t, w.svc.AddProject(bg, conn.ID, "proj-a"))
	call := w.goClient(t, "Claude chat")

	ids := func(args map[string]any) []string {
		t.Helper()
		text, isErr := call("list_project_resources", args)
		if isErr {
			t.Fatalf("list_project_resources %v: tool error %s", args, text)
		}
		var out struct {
			Resources []connect.Resource `json:"resources"`
		}
		must(t, json.Unmarshal([]byte(text), &out))
		got := []string{}
		for _, r := range out.Resources {
			got = append(got, r.Kind+":"+r.ID)
		}
		return got
	}
	chA := "message_channel:" + w.discA.ID
	all := ids(map[string]any{})
	want := []string{"knowledge_base:kb-a", "note:note-a1", "record_channel:rc-a", chA}
	for _, x := range want {
		if !slices.Contains(all, x) {
			t.Errorf("all resources %v: missing %s", all, x)
		}
	}
	if len(all) != len(want) {
		t.Errorf("all resources %v; want exactly %v (no un-invited channel, nothing of project B)", all, want)
	}
	steps := []struct {
		name  string
		owner func()
		args  map[string]any
		want  []string
	}{
		{"only knowledge bases", nil, map[string]any{"resource_type": "knowledge_base"}, []string{"knowledge_base:kb-a"}},
		{"only Record channels", nil, map[string]any{"project_id": "proj-a", "resource_type": "record_channel"}, []string{"record_channel:rc-a"}},
		{"only Message channels: the discussion channel", nil, map[string]any{"resource_type": "message_channel"}, []string{chA}},
		{"search ignores case", nil, map[string]any{"search": "LAUNCH"}, []string{"note:note-a1"}},
		{"search and type together", nil, map[string]any{"search": "pricing", "resource_type": "note"}, []string{}},
		{"an invite adds the channel", func() { must(t, w.svc.InviteChannel(bg, conn.ID, general.ID, connect.OwnerID)) },
			map[string]any{"resource_type": "message_channel", "search": "gen"}, []string{"message_channel:" + general.ID}},
		{"a private channel with another person's invite stays out", func() { must(t, w.svc.InviteChannel(bg, conn.ID, secret.ID, connect.OwnerID)) },
			map[string]any{"resource_type": "message_channel", "search": "secret"}, []string{}},
		{"its owner's invite lists it", func() {
			must(t, w.svc.RemoveChannel(bg, conn.ID, secret.ID))
			must(t, w.svc.InviteChannel(bg, conn.ID, secret.ID, "alice"))
		}, map[string]any{"resource_type": "message_channel", "search": "secret"}, []string{"message_channel:" + secret.ID}},
	}
	for _, s := range steps {
		if s.owner != nil {
			s.owner()
		}
		if got := ids(s.args); !slices.Equal(got, s.want) {
			t.Errorf("%s: got %v, want %v", s.name, got, s.want)
		}
	}

	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"type": "note"}, []string{`unknown argument "type"`, "project_id, resource_type, search"}},
		{map[string]any{"resource_type": "wiki"}, []string{`"wiki"`, "note, knowledge_base, record_channel, message_channel"}},
		{map[string]any{"resource_type": ""}, []string{"note, knowledge_base, record_channel, message_channel"}},
		{map[string]any{"search": 3}, []string{"search must be a string"}},
		{map[string]any{"search": strings.Repeat("x", 201)}, []string{"search", "200 characters"}},
	} {
		text, isErr := call("list_project_resources", c.args)
		if !isErr {
			t.Errorf("%v: not a tool error: %s", c.args, text)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%v: %q does not say %q", c.args, text, w)
			}
		}
	}
}
