package messages

import (
	"strings"
	"sync"
	"testing"
	"time"
)

type recEmitter struct {
	mu  sync.Mutex
	got []PostedEvent
}

func (r *recEmitter) Emit(name string, p any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if name == EventPosted {
		r.got = append(r.got, p.(PostedEvent))
	}
}

// TestAssistantPostNotifiesOncePerCooldown: an assistant's post notifies
// with the connection's name; a second one in the same channel within
// 30 s does not, another channel does, and after 30 s it notifies again.
// The person's own posts never notify; every post is emitted.
func TestAssistantPostNotifiesOncePerCooldown(t *testing.T) {
	s := open(t)
	now := time.Unix(1_700_000_000, 0)
	var shown []string
	emit := &recEmitter{}
	b := NewBinding(bg, s, emit, func(title, body, key string) { shown = append(shown, title+"|"+body) }, func() time.Time { return now })
	c1, _ := s.CreateChannel(bg, NewChannel{Workspace: "ws", Name: "general"})
	c2, _ := s.CreateChannel(bg, NewChannel{Workspace: "ws", Name: "launch"})
	bot := func(c Channel, text string) {
		t.Helper()
		if _, _, err := s.PostMessage(bg, Post{Channel: c.ID, AuthorKind: AuthorAssistant, Author: "connect:x", AuthorName: "Claude chat", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Post(c1.ID, "mine", ""); err != nil {
		t.Fatal(err)
	}
	bot(c1, "first")
	now = now.Add(10 * time.Second)
	bot(c1, "second")
	bot(c2, "elsewhere")
	now = now.Add(21 * time.Second)
	bot(c1, "later")
	want := "Claude chat in #general|first,Claude chat in #launch|elsewhere,Claude chat in #general|later"
	if got := strings.Join(shown, ","); got != want {
		t.Fatalf("notifications %q\nwant %q", got, want)
	}
	if len(emit.got) != 5 || emit.got[0].Message.AuthorName != OwnerName || emit.got[1].Channel.Name != "general" {
		t.Fatalf("emitted %+v; want all 5 posts with their channel", emit.got)
	}
}
