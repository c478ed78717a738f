package pgmessages_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
	"github.com/osfoundry/desktop/backend/tools"
)

// postTool returns the post_channel_message handler of s.
func postTool(t *testing.T, s *messages.Store) tools.Handler {
	t.Helper()
	for _, tl := range s.Tools() {
		if tl.Name == messages.ToolPostChannelMessage {
			return tl.Handler
		}
	}
	t.Fatal("no post_channel_message tool")
	return nil
}

// One connection calling post_channel_message on two replicas at once
// gets the per-minute limit once in all, not once per replica; a call
// retried on the other replica with its idempotency key posts nothing
// new (the limit counts the call, as on the desktop).
func TestPostLimitHoldsAcrossReplicas(t *testing.T) {
	url := pgtest.Database(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	opts := messages.Options{PostsPerMinute: 3, Now: func() time.Time { return at }}
	_, b0 := open(t, url)
	_, b1 := open(t, url)
	s := [2]*messages.Store{messages.New(b0, opts), messages.New(b1, opts)}
	c, err := s[0].CreateChannel(bg, messages.NewChannel{Workspace: "ws-1", Name: "general"})
	if err != nil {
		t.Fatal(err)
	}
	call := func(i int, key string) tools.Result {
		args, _ := json.Marshal(map[string]string{"channel_id": c.ID, "text": "hello " + key, "idempotency_key": key})
		res, err := postTool(t, s[i%2])(context.Background(), tools.Call{Workspace: "ws-1", Source: "connect:c1",
			Tool: messages.ToolPostChannelMessage, Args: args})
		if err != nil {
			t.Error(err)
		}
		return res
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	posted, refused := 0, 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := call(i, fmt.Sprint("k", i))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case !res.IsError:
				posted++
			case strings.Contains(res.Text, "at most 3 messages a minute"):
				refused++
			default:
				t.Errorf("call %d: %s", i, res.Text)
			}
		}()
	}
	wg.Wait()
	ms, err := s[1].ListMessages(bg, c.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if posted != 3 || refused != 5 || len(ms) != 3 {
		t.Fatalf("posted %d, refused %d, stored %d; want 3, 5, 3", posted, refused, len(ms))
	}
	at = at.Add(time.Minute)
	first := call(0, "retry")
	again := call(1, "retry")
	if first.IsError || again.IsError || !strings.Contains(again.Text, `"replayed": true`) {
		t.Fatalf("a call retried on the other replica: %s / %s", first.Text, again.Text)
	}
	if ms, _ := s[0].ListMessages(bg, c.ID, 0, 0); len(ms) != 4 {
		t.Errorf("%d posts after the retried call, want 4", len(ms))
	}
}
