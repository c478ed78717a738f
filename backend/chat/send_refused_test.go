package chat

import (
	"context"
	"errors"
	"github.com/osfoundry/desktop/backend/roles"
	"testing"
)

// A task refused before it runs (no Local Folder, CLI turned off) leaves
// the chat as it was: sending it again after the fix does not show the
// message twice.
func TestRefusedSendKeepsNoMessage(t *testing.T) {
	r := newRig(t, "ok", "done")
	ctx := context.Background()
	c, err := r.svc.CreateChat(ctx, NewChat{})
	must(t, err)
	if _, err := r.svc.Send(ctx, c.ID, "Tidy the README"); !errors.Is(err, roles.ErrNoFolders) {
		t.Fatalf("send without a folder: %v", err)
	}
	_, err = r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	_, err = r.svc.Roles().SetEnabled(ctx, "claude", false)
	must(t, err)
	if _, err := r.svc.Send(ctx, c.ID, "Tidy the README"); err == nil {
		t.Fatal("send with Claude Code off was accepted")
	}
	d, err := r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if len(d.Messages) != 0 {
		t.Errorf("refused tasks were kept as messages: %+v", d.Messages)
	}
}
