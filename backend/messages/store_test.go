package messages

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

var bg = context.Background()

func open(t *testing.T) *Store {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "osfoundry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := Open(db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDiscussionChannelIsOnePerProject(t *testing.T) {
	s := open(t)
	a, err := s.Discussion(bg, "ws", "p1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Discussion(bg, "ws", "p1")
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != b.ID || !a.Discussion {
		t.Fatalf("second call gave %+v, first %+v; want the same discussion channel", b, a)
	}
	if _, err := s.Discussion(bg, "other-ws", "p1"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("discussion of p1 in another workspace: err %v, want ErrInvalid", err)
	}
}

func TestCreateChannelRefusesBadInput(t *testing.T) {
	s := open(t)
	for name, n := range map[string]NewChannel{
		"empty name":          {Workspace: "ws", Name: "  "},
		"long name":           {Workspace: "ws", Name: strings.Repeat("n", MaxNameChars+1)},
		"private, no owner":   {Workspace: "ws", Name: "x", Private: true},
		"no workspace at all": {Name: "x"},
		"a NUL in the name":   {Workspace: "ws", Name: "a\x00b"},
	} {
		if _, err := s.CreateChannel(bg, n); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err %v, want ErrInvalid", name, err)
		}
	}
}

func TestPostIdempotencyAndReading(t *testing.T) {
	s := open(t)
	c, err := s.CreateChannel(bg, NewChannel{Workspace: "ws", Name: "general"})
	if err != nil {
		t.Fatal(err)
	}
	var announced []string
	s.OnPost(func(_ Channel, m Message) { announced = append(announced, m.Text) })
	post := func(text, key string) (Message, bool, error) {
		return s.PostMessage(bg, Post{Channel: c.ID, AuthorKind: AuthorAssistant, Author: "connect:c1", Text: text, Key: key})
	}
	first, replayed, err := post("one", "k1")
	if err != nil || replayed {
		t.Fatalf("first post: replayed %v err %v", replayed, err)
	}
	again, replayed, err := post("one", "k1")
	if err != nil || !replayed || again.ID != first.ID {
		t.Fatalf("retry: %+v replayed %v err %v; want the first post replayed", again, replayed, err)
	}
	if _, _, err := post("two", "k1"); !errors.Is(err, ErrKeyReused) {
		t.Fatalf("same key, other text: err %v, want ErrKeyReused", err)
	}
	if _, _, err := post(strings.Repeat("é", MaxTextChars+1), "k2"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "limit is 4000") {
		t.Fatalf("oversized post: err %v, want the limit named", err)
	}
	// PostgreSQL cannot keep these, so neither engine takes them.
	for name, p := range map[string][2]string{"NUL in the text": {"a\x00b", "k3"}, "invalid UTF-8": {"a\xffb", "k4"}, "NUL in the key": {"fine", "k\x005"}} {
		if _, _, err := post(p[0], p[1]); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "without NUL characters") {
			t.Errorf("%s: err %v, want ErrInvalid saying what to remove", name, err)
		}
	}
	if _, _, err := s.PostMessage(bg, Post{Channel: c.ID, AuthorKind: AuthorPerson, Author: "owner", Text: "re", ReplyTo: "msg_missing"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("reply to a missing message: err %v, want ErrInvalid", err)
	}
	for _, txt := range []string{"two", "three", "four"} {
		if _, _, err := s.PostMessage(bg, Post{Channel: c.ID, AuthorKind: AuthorPerson, Author: "owner", Text: txt}); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(announced, ","); got != "one,two,three,four" {
		t.Fatalf("announced %q; want each committed post once", got)
	}
	all, err := s.ListMessages(bg, c.ID, 0, 0)
	if err != nil || len(all) != 4 || all[0].Text != "one" || all[3].Text != "four" {
		t.Fatalf("all: %+v err %v", all, err)
	}
	newer, _ := s.ListMessages(bg, c.ID, all[1].Seq, 0)
	if len(newer) != 2 || newer[0].Text != "three" {
		t.Fatalf("since seq %d: %+v; want three, four", all[1].Seq, newer)
	}
	last, _ := s.ListMessages(bg, c.ID, 0, 2)
	if len(last) != 2 || last[0].Text != "three" || last[1].Text != "four" {
		t.Fatalf("limit 2: %+v; want the newest two, oldest first", last)
	}
}
