// Package messagestest is the store test suite every messages.Backend must
// pass: the desktop's SQLite backend and the team server's PostgreSQL one
// (pgmessages). It checks the backend through the interface only, so the
// rules in messages.Store can rely on the same behaviour from both, and
// runs posts from two backends on one database at once (two processes,
// or two replicas of the server). Only tests import it.
package messagestest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/osfoundry/desktop/backend/messages"
)

// Env is one fresh, empty backend under test.
type Env struct {
	Backend messages.Backend
	// AddProject creates a project (and its workspace, when new) the way
	// the notes store does; the backend reads projects, never writes them.
	AddProject func(t *testing.T, workspace, project, name string)
	// Replica opens a second backend on the same database, as another
	// process or server replica would.
	Replica func(t *testing.T) messages.Backend
}

// RunStoreSuite runs every check against a fresh backend from open.
func RunStoreSuite(t *testing.T, open func(t *testing.T) Env) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, e Env)
	}{
		{"ChannelsRoundTripAndOrder", channelsRoundTrip},
		{"OneDiscussionPerProject", oneDiscussion},
		{"PostsAreNumberedAndPaged", postsPaged},
		{"KeysArePerWorkspace", keysPerWorkspace},
		{"FailedWriteLeavesNothing", failedWrite},
		{"ProjectsAndNames", projectsAndNames},
		{"UnstorableIDsAreNotFound", oddLookups},
		{"RetriedPostsAcrossReplicas", retriedPosts},
		{"ReaderNeverSkipsAPost", readerNeverSkips},
		{"PostWindowAcrossReplicas", postWindow},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, open(t)) })
	}
}

var bg = context.Background()

func channel(id, ws, project, name string) messages.Channel {
	return messages.Channel{ID: id, Workspace: ws, Project: project, Name: name, CreatedAt: "2026-01-02T03:04:05.123456789Z"}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func ids(cs []messages.Channel) string {
	out := ""
	for _, c := range cs {
		out += c.ID + " "
	}
	return out
}

func channelsRoundTrip(t *testing.T, e Env) {
	rows := e.Backend.Pool().Channels()
	priv := channel("ch_p", "ws-1", "", "zeta")
	priv.Private, priv.Owner = true, "owner"
	for _, c := range []messages.Channel{channel("ch_b", "ws-1", "p1", "beta"), priv, channel("ch_a", "ws-1", "", "alpha"),
		channel("ch_o", "ws-2", "", "other")} {
		must(t, rows.InsertChannel(bg, c))
	}
	disc := channel("ch_d", "ws-1", "p1", "discussion")
	disc.Discussion = true
	must(t, rows.InsertDiscussion(bg, disc))

	got, err := rows.Channel(bg, "ch_p")
	must(t, err)
	if got != priv {
		t.Errorf("Channel = %+v, want %+v", got, priv)
	}
	if _, err := rows.Channel(bg, "ch_none"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("Channel of an unknown id: %v, want ErrNotFound", err)
	}
	all, err := rows.Channels(bg, "ws-1", "")
	must(t, err)
	if got, want := ids(all), "ch_d ch_a ch_b ch_p "; got != want {
		t.Errorf("Channels(ws-1) = %s, want %s (discussion first, then by name)", got, want)
	}
	inP1, err := rows.Channels(bg, "ws-1", "p1")
	must(t, err)
	if got, want := ids(inP1), "ch_d ch_b "; got != want {
		t.Errorf("Channels(ws-1, p1) = %s, want %s", got, want)
	}
	none, err := rows.Channels(bg, "ws-none", "")
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("Channels of an empty workspace = %v, %v; want an empty list", none, err)
	}
	ws, err := rows.Workspaces(bg)
	must(t, err)
	if fmt.Sprint(ws) != "[ws-1 ws-2]" {
		t.Errorf("Workspaces = %v, want [ws-1 ws-2]", ws)
	}
}

func oneDiscussion(t *testing.T, e Env) {
	rows := e.Backend.Pool().Channels()
	if _, err := rows.Discussion(bg, "p1"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("Discussion before there is one: %v, want ErrNotFound", err)
	}
	first := channel("ch_1", "ws-1", "p1", "discussion")
	first.Discussion = true
	second := first
	second.ID = "ch_2"
	must(t, rows.InsertDiscussion(bg, first))
	must(t, rows.InsertDiscussion(bg, second)) // a second first caller: nothing happens
	got, err := rows.Discussion(bg, "p1")
	must(t, err)
	if got.ID != "ch_1" || !got.Discussion {
		t.Errorf("Discussion = %+v, want the first one", got)
	}
	if _, err := rows.Channel(bg, "ch_2"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("the second discussion channel was stored: %v", err)
	}
	// An ordinary channel in the project is not its discussion.
	must(t, rows.InsertChannel(bg, channel("ch_3", "ws-1", "p2", "general")))
	if _, err := rows.Discussion(bg, "p2"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("Discussion of a project with only an ordinary channel: %v, want ErrNotFound", err)
	}
}

func post(id, ch, text string) messages.Message {
	return messages.Message{ID: id, Channel: ch, AuthorKind: messages.AuthorAssistant, Author: "connect:c1",
		AuthorName: "Claude", Text: text, CreatedAt: "2026-01-02T03:04:05Z"}
}

func postsPaged(t *testing.T, e Env) {
	must(t, e.Backend.Pool().Channels().InsertChannel(bg, channel("ch_a", "ws-1", "", "a")))
	must(t, e.Backend.Pool().Channels().InsertChannel(bg, channel("ch_b", "ws-1", "", "b")))
	rows := e.Backend.Pool().Posts()
	var seqs []int64
	for i := 1; i <= 5; i++ {
		m := post(fmt.Sprintf("msg_%d", i), "ch_a", fmt.Sprint("post ", i))
		if i == 3 {
			m.ReplyTo = "msg_1"
		}
		seq, err := rows.InsertMessage(bg, m)
		must(t, err)
		if len(seqs) > 0 && seq <= seqs[len(seqs)-1] {
			t.Fatalf("seq %d after %d: seqs must increase", seq, seqs[len(seqs)-1])
		}
		seqs = append(seqs, seq)
		if i == 2 {
			_, err := rows.InsertMessage(bg, post("msg_other", "ch_b", "elsewhere"))
			must(t, err)
		}
	}
	got, err := rows.Message(bg, "msg_3")
	must(t, err)
	want := post("msg_3", "ch_a", "post 3")
	want.ReplyTo, want.Seq = "msg_1", seqs[2]
	if got != want {
		t.Errorf("Message = %+v, want %+v", got, want)
	}
	if _, err := rows.Message(bg, "msg_none"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("Message of an unknown id: %v, want ErrNotFound", err)
	}
	for _, c := range []struct {
		id, ch string
		want   bool
	}{{"msg_1", "ch_a", true}, {"msg_other", "ch_a", false}, {"msg_none", "ch_a", false}} {
		ok, err := rows.InChannel(bg, c.id, c.ch)
		if err != nil || ok != c.want {
			t.Errorf("InChannel(%s, %s) = %v, %v; want %v", c.id, c.ch, ok, err, c.want)
		}
	}
	texts := func(ms []messages.Message) string {
		out := ""
		for _, m := range ms {
			out += m.Text + "; "
		}
		return out
	}
	for _, c := range []struct {
		name  string
		since int64
		limit int
		want  string
	}{
		{"newest three, oldest first", 0, 3, "post 3; post 4; post 5; "},
		{"after a seq", seqs[1], 50, "post 3; post 4; post 5; "},
		{"after the last", seqs[4], 50, ""},
	} {
		ms, err := rows.Messages(bg, "ch_a", c.since, c.limit)
		must(t, err)
		if got := texts(ms); got != c.want || ms == nil {
			t.Errorf("%s: Messages = %q (nil %v), want %q", c.name, got, ms == nil, c.want)
		}
	}
}

func keysPerWorkspace(t *testing.T, e Env) {
	rows := e.Backend.Pool().Posts()
	if _, err := rows.Key(bg, "ws-1", "k"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("Key before it is stored: %v, want ErrNotFound", err)
	}
	must(t, rows.InsertKey(bg, "ws-1", "k", messages.StoredKey{ArgsHash: "h1", MessageID: "msg_1"}))
	got, err := rows.Key(bg, "ws-1", "k")
	must(t, err)
	if got != (messages.StoredKey{ArgsHash: "h1", MessageID: "msg_1"}) {
		t.Errorf("Key = %+v", got)
	}
	if _, err := rows.Key(bg, "ws-2", "k"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("a key of ws-1 is found in ws-2: %v", err)
	}
	if err := rows.InsertKey(bg, "ws-1", "k", messages.StoredKey{ArgsHash: "h2", MessageID: "msg_2"}); err == nil {
		t.Error("a key was stored twice in one workspace")
	}
	must(t, rows.InsertKey(bg, "ws-2", "k", messages.StoredKey{ArgsHash: "h2", MessageID: "msg_2"}))
}

func failedWrite(t *testing.T, e Env) {
	must(t, e.Backend.Pool().Channels().InsertChannel(bg, channel("ch_a", "ws-1", "", "a")))
	boom := errors.New("boom")
	err := e.Backend.Write(bg, func(tx messages.Tx) error {
		if _, err := tx.Posts().InsertMessage(bg, post("msg_1", "ch_a", "lost")); err != nil {
			return err
		}
		if err := tx.Posts().InsertKey(bg, "ws-1", "k", messages.StoredKey{ArgsHash: "h", MessageID: "msg_1"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want f's error", err)
	}
	if _, err := e.Backend.Pool().Posts().Message(bg, "msg_1"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("the post of a failed write was kept: %v", err)
	}
	if _, err := e.Backend.Pool().Posts().Key(bg, "ws-1", "k"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("the key of a failed write was kept: %v", err)
	}
	// A write that succeeds is seen by the pool after it returns.
	must(t, e.Backend.Write(bg, func(tx messages.Tx) error {
		_, err := tx.Posts().InsertMessage(bg, post("msg_2", "ch_a", "kept"))
		return err
	}))
	if _, err := e.Backend.Pool().Posts().Message(bg, "msg_2"); err != nil {
		t.Errorf("a committed post is not read back: %v", err)
	}
}

func projectsAndNames(t *testing.T, e Env) {
	e.AddProject(t, "ws-1", "p1", "Apollo")
	e.AddProject(t, "ws-1", "p2", "Borealis")
	places := e.Backend.Pool().Places()
	ws, err := places.ProjectWorkspace(bg, "p2")
	if err != nil || ws != "ws-1" {
		t.Errorf("ProjectWorkspace(p2) = %q, %v; want ws-1", ws, err)
	}
	if _, err := places.ProjectWorkspace(bg, "p-none"); !errors.Is(err, messages.ErrNotFound) {
		t.Errorf("ProjectWorkspace of an unknown project: %v, want ErrNotFound", err)
	}
	// A backend may give a project its discussion channel when the project
	// is made; either way, one with a discussion channel is never listed.
	without := func() map[string]bool {
		ps, err := places.ProjectsWithoutDiscussion(bg)
		must(t, err)
		out := map[string]bool{}
		for _, p := range ps {
			if p.Workspace != "ws-1" {
				t.Errorf("project %s listed in workspace %q", p.ID, p.Workspace)
			}
			out[p.ID] = true
		}
		return out
	}
	w := without()
	for _, p := range []string{"p1", "p2"} {
		_, err := e.Backend.Pool().Channels().Discussion(bg, p)
		if has := err == nil; has == w[p] {
			t.Errorf("project %s: has a discussion channel %v, listed without one %v", p, has, w[p])
		}
	}
	d := channel("ch_d1", "ws-1", "p1", "discussion")
	d.Discussion = true
	must(t, e.Backend.Pool().Channels().InsertDiscussion(bg, d))
	if without()["p1"] {
		t.Error("p1 is still listed without a discussion channel")
	}
	wn, pn, err := places.Names(bg, "ws-1", "p2")
	must(t, err)
	if pn != "Borealis" || wn == "" {
		t.Errorf("Names(ws-1, p2) = %q, %q; want the workspace's name and Borealis", wn, pn)
	}
	wn, pn, err = places.Names(bg, "ws-none", "")
	if err != nil || wn != "ws-none" || pn != "" {
		t.Errorf("Names of an unknown workspace = %q, %q, %v; want its id and no project", wn, pn, err)
	}
	ps, err := places.Places(bg)
	must(t, err)
	var order []string
	for _, p := range ps {
		order = append(order, p.ID+"@"+p.Workspace)
	}
	if got, want := fmt.Sprint(order), "[ws-1@ p1@ws-1 p2@ws-1]"; got != want {
		t.Errorf("Places = %s, want %s", got, want)
	}
}

// oddLookups: ids no post could have (a NUL character, invalid UTF-8,
// which callers may send) are simply not found, on every engine.
func oddLookups(t *testing.T, e Env) {
	for _, id := range []string{"ch\x00a", "ch\xffa"} {
		rows := e.Backend.Pool()
		if _, err := rows.Channels().Channel(bg, id); !errors.Is(err, messages.ErrNotFound) {
			t.Errorf("Channel(%q): %v, want ErrNotFound", id, err)
		}
		if _, err := rows.Channels().Discussion(bg, id); !errors.Is(err, messages.ErrNotFound) {
			t.Errorf("Discussion(%q): %v, want ErrNotFound", id, err)
		}
		if cs, err := rows.Channels().Channels(bg, id, id); err != nil || len(cs) != 0 {
			t.Errorf("Channels(%q) = %v, %v; want none", id, cs, err)
		}
		if _, err := rows.Posts().Message(bg, id); !errors.Is(err, messages.ErrNotFound) {
			t.Errorf("Message(%q): %v, want ErrNotFound", id, err)
		}
		if _, err := rows.Posts().Key(bg, "ws-1", id); !errors.Is(err, messages.ErrNotFound) {
			t.Errorf("Key(%q): %v, want ErrNotFound", id, err)
		}
		if ok, err := rows.Posts().InChannel(bg, id, id); err != nil || ok {
			t.Errorf("InChannel(%q) = %v, %v; want false", id, ok, err)
		}
		if ms, err := rows.Posts().Messages(bg, id, 0, 10); err != nil || len(ms) != 0 {
			t.Errorf("Messages(%q) = %v, %v; want none", id, ms, err)
		}
	}
}
