package messages_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// TestRunToolsReachOnlyTheRunsDiscussionChannel: the message tools a run
// gets on its bridge read and post only in the discussion channel of the
// project the run was started for (bound with the run, never taken from
// the arguments); a post says which run wrote it.
func TestRunToolsReachOnlyTheRunsDiscussionChannel(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := messages.Open(db, messages.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][3]string{{"ws", "proj-a", "Launch"}, {"ws", "proj-b", "Finance"}, {"ws-2", "proj-c", "Other"}} {
		if _, err := st.CreateWorkspace(ctx, p[0], p[0]); err != nil && !strings.Contains(err.Error(), "UNIQUE") {
			t.Fatal(err)
		}
		if _, err := st.CreateProject(ctx, p[0], p[1], p[2]); err != nil {
			t.Fatal(err)
		}
	}
	discA, _ := ms.ProjectDiscussion(ctx, "proj-a")
	discB, _ := ms.ProjectDiscussion(ctx, "proj-b")
	general, err := ms.CreateChannel(ctx, messages.NewChannel{Workspace: "ws", Project: "proj-a", Name: "general"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ms.PostMessage(ctx, messages.Post{Channel: discA.ID, AuthorKind: messages.AuthorPerson, Author: "owner",
		AuthorName: "You", Text: "Please summarise the launch."}); err != nil {
		t.Fatal(err)
	}
	byName := map[string]tools.Tool{}
	for _, tl := range ms.RunTools() {
		byName[tl.Name] = tl
	}
	call := func(project, tool string, args map[string]any) tools.Result {
		t.Helper()
		raw, _ := json.Marshal(args)
		tl, ok := byName[tool]
		if !ok {
			t.Fatalf("RunTools has no %s", tool)
		}
		r, err := tl.Handler(ctx, tools.Call{Workspace: "ws", User: "owner", Channel: "pipeline", Project: project,
			Tool: tool, Args: raw, Source: "bridge:run_42"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	post := func(ch, text, key string) map[string]any {
		m := map[string]any{"text": text, "idempotency_key": key}
		if ch != "" {
			m["channel_id"] = ch
		}
		return m
	}
	steps := []struct {
		name, project, tool string
		args                map[string]any
		wantErr             bool
		want                string
	}{
		{"reads its project's discussion without naming it", "proj-a", messages.ToolListChannelMessages, map[string]any{}, false, "Please summarise the launch."},
		{"or naming it", "proj-a", messages.ToolListChannelMessages, map[string]any{"channel_id": discA.ID}, false, "Please summarise the launch."},
		{"posts there", "proj-a", messages.ToolPostChannelMessage, post("", "Summary: ready to ship.", "run-key-1"), false, `"author_name": "Run run_42"`},
		{"another project's discussion is closed", "proj-a", messages.ToolListChannelMessages, map[string]any{"channel_id": discB.ID}, true, "only in the discussion channel of its project"},
		{"another channel of its own project is closed", "proj-a", messages.ToolPostChannelMessage, post(general.ID, "hi", "run-key-2"), true, "only in the discussion channel of its project"},
		{"a run for no project has no channel", "", messages.ToolListChannelMessages, map[string]any{}, true, "not started for a project"},
		{"a project of another workspace is not found", "proj-c", messages.ToolListChannelMessages, map[string]any{}, true, "not found"},
		{"an unknown argument is refused", "proj-a", messages.ToolListChannelMessages, map[string]any{"channel": discB.ID}, true, `unknown argument "channel"`},
	}
	for _, s := range steps {
		r := call(s.project, s.tool, s.args)
		if r.IsError != s.wantErr || !strings.Contains(r.Text, s.want) {
			t.Errorf("%s: error=%v %s; want error=%v containing %q", s.name, r.IsError, r.Text, s.wantErr, s.want)
		}
	}
	got, err := ms.ListMessages(ctx, discA.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].AuthorKind != messages.AuthorAssistant || got[1].Author != "bridge:run_42" || got[1].AuthorName != "Run run_42" {
		t.Fatalf("discussion holds %+v; want the run's post after the person's", got)
	}
	for _, c := range []messages.Channel{discB, general} {
		if n, _ := ms.ListMessages(ctx, c.ID, 0, 0); len(n) != 0 {
			t.Fatalf("channel %s got %d posts from the run", c.Name, len(n))
		}
	}
}
