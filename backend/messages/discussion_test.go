package messages_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// TestDiscussionChannelIsCreatedWithTheProject: a project has its
// discussion channel as soon as it exists, whoever creates it (the app, an
// owner command in another process), without anyone asking for the channel
// first; projects made before the message store existed get theirs when it
// opens.
func TestDiscussionChannelIsCreatedWithTheProject(t *testing.T) {
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
	if _, err := st.CreateWorkspace(ctx, "ws", "Acme"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateProject(ctx, "ws", "older", "Made before the message store"); err != nil {
		t.Fatal(err)
	}
	ms, err := messages.Open(db, messages.Options{})
	if err != nil {
		t.Fatal(err)
	}
	discussions := func(project string) []messages.Channel {
		t.Helper()
		cs, err := ms.ListChannels(ctx, "ws", project)
		if err != nil {
			t.Fatal(err)
		}
		out := []messages.Channel{}
		for _, c := range cs {
			if c.Discussion {
				out = append(out, c)
			}
		}
		return out
	}
	if got := discussions("older"); len(got) != 1 {
		t.Fatalf("project made before the store opened: %d discussion channels, want 1", len(got))
	}
	// Another process (osfoundry notes) creates a project on the same
	// database: a second notes store that knows nothing of messages.
	other, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	st2, err := notes.Open(other, filepath.Join(dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st2.CreateProject(ctx, "ws", "launch", "Launch"); err != nil {
		t.Fatal(err)
	}
	got := discussions("launch")
	if len(got) != 1 || got[0].Name != "discussion" || got[0].Workspace != "ws" || got[0].Private || got[0].ID == "" {
		t.Fatalf("new project's discussion channels: %+v; want one public channel named discussion", got)
	}
	c, err := ms.ProjectDiscussion(ctx, "launch")
	if err != nil || c.ID != got[0].ID {
		t.Fatalf("ProjectDiscussion = %+v, %v; want the channel made with the project (%s)", c, err, got[0].ID)
	}
	if _, _, err := ms.PostMessage(ctx, messages.Post{Channel: c.ID, AuthorKind: messages.AuthorPerson, Author: "owner",
		AuthorName: "You", Text: "hello"}); err != nil {
		t.Fatalf("posting to the new discussion channel: %v", err)
	}
	// Opening the store again neither duplicates nor fails.
	if _, err := messages.Open(db, messages.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := discussions("launch"); len(got) != 1 {
		t.Fatalf("after reopening: %d discussion channels", len(got))
	}
}
