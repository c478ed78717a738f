package chat_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/store"
)

// The pipeline plugs into the same Source: an idle chat ends through the
// board.Done flow (summary, then EndChat) and its card moves to board.Done.
func TestPipelineChatEndsThroughTheBoard(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// No run starts here: the runner only needs a home that is not the user's.
	home := t.TempDir()
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: home, Path: home, Environ: []string{"PATH=/usr/bin:/bin"}}})
	svc, err := chat.New(ctx, chat.Options{DB: db, Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	folder := filepath.Join(t.TempDir(), "shop-web")
	os.Mkdir(folder, 0o700)
	chat, err := svc.CreateChat(ctx, chat.NewChat{Title: "Checkout copy", Folder: folder})
	if err != nil {
		t.Fatal(err)
	}
	kn := t.TempDir()
	em := &cardsEmitter{}
	b := board.New(kn, em)
	b.Add("pipeline", boardSource(svc, b.Changed))
	key := "pipeline/" + chat.ID
	cards := b.Cards()
	if len(cards) != 1 || cards[0].Key != key || cards[0].Kind != board.KindChat || cards[0].State != board.Idle || cards[0].Folder != "shop-web" {
		t.Fatalf("cards = %+v", cards)
	}
	if err := b.Drop(key, board.Done); err != nil {
		t.Fatalf("idle chat on board.Done: %v", err)
	}
	path, err := b.End(key)
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(path)
	if !strings.Contains(string(md), "# Checkout copy") || !strings.Contains(string(md), "- Kind: Chat") {
		t.Errorf("summary:\n%s", md)
	}
	em.waitColumn(t, key, board.Done, time.Time{})
	if err := b.Drop(key, board.Done); err == nil {
		t.Error("an ended chat can be dropped on board.Done again")
	}
}

// boardSource is the chats' board source as the window adds it.
func boardSource(svc *chat.Service, changed func()) *chat.BoardSource {
	src := chat.NewBoardSource(svc, nil)
	if changed != nil {
		src.Watch(changed)
	}
	return src
}
