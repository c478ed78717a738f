//go:build linux

package board

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/store"
)

// A fake claude that starts and then works until it is ended.
const hangingClaude = "#!/bin/sh\necho '{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s-1\"}'\nexec sleep 300\n"

// A chat's run in progress pauses from the board: the card moves to Paused
// (with Pause offered), resumes to Running, and a paused chat ends
// through the Done flow.
func TestPipelineChatPausesOnTheBoard(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	folder := filepath.Join(dir, "shop-web")
	for _, d := range []string{bin, folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(hangingClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: dir, Path: bin,
		Environ: []string{"PATH=" + bin + ":/usr/bin:/bin"}}})
	svc, err := pipeline.New(ctx, pipeline.Options{DB: db, Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if _, err := svc.SetRoleModel(ctx, "Worker", "cli:claude:agent"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddFolder(ctx, folder); err != nil {
		t.Fatal(err)
	}
	chat, err := svc.CreateChat(ctx, pipeline.NewChat{Title: "Checkout copy"})
	if err != nil {
		t.Fatal(err)
	}
	em := &cardsEmitter{}
	b := New(t.TempDir(), em)
	b.Add("pipeline", NewPipeline(svc, b.Changed))
	key := "pipeline/" + chat.ID
	if _, err := svc.Send(ctx, chat.ID, "rewrite the checkout copy"); err != nil {
		t.Fatal(err)
	}
	if c := b.Cards()[0]; c.State != Running || !c.CanPause {
		t.Fatalf("running chat card = %+v", c)
	}
	since := time.Now()
	if err := b.Pause(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, Paused, since)
	c := b.Cards()[0]
	if c.State != Paused || !c.CanPause || !strings.HasPrefix(c.Why, "Paused — Claude Code is frozen") {
		t.Errorf("paused chat card = %+v", c)
	}
	since = time.Now()
	if err := b.Resume(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, Running, since)
	if err := b.Drop(key, Done); err != ErrStillRunning {
		t.Errorf("dropping a running chat on Done: %v", err)
	}
	if err := b.Pause(key); err != nil {
		t.Fatal(err)
	}
	if err := b.Drop(key, Done); err != nil {
		t.Fatalf("paused chat on Done: %v", err)
	}
	if _, err := b.End(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, Done, since)
}
