package teamclient

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// A synced project's discussion channel: a post on alice's desktop shows
// on bob's within a second, posts written offline go up in order when the
// server is back (none lost or doubled, across a restart), and a
// Local-only project's discussion never reaches the server.
func testPostsSync(t *testing.T, tm *teamtest.Team) {
	a, b := aliceAndBob(t, tm)
	am, bm := a.openMessages(t), b.openMessages(t)

	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	pr, err := a.notes.CreateProject(bg, home.ID, "", "Release")
	must(t, err)
	private, err := a.notes.CreateProject(bg, home.ID, "", "Private")
	must(t, err)
	if _, err := a.r.ShareProject(bg, tm.Workspace, pr.ID); err != nil {
		t.Fatal(err)
	}
	must(t, a.r.Sync(bg))
	a.post(t, am, pr.ID, "before bob joined")
	must(t, a.r.Sync(bg))
	must(t, b.r.JoinProject(bg, tm.Workspace, pr.ID))
	if got := texts(t, bm, pr.ID); got != "before bob joined" {
		t.Fatalf("bob's discussion after joining: %q", got)
	}

	stop := runReplicas(a, b)
	var lat []time.Duration
	for i := range 5 {
		t0 := time.Now()
		a.post(t, am, pr.ID, fmt.Sprintf("live %d", i))
		waitFor(t, "bob to see alice's post", func() bool { return strings.HasSuffix(texts(t, bm, pr.ID), fmt.Sprintf("live %d", i)) })
		lat = append(lat, time.Since(t0))
	}
	t.Logf("alice's post on bob's desktop after %v", lat)
	b.post(t, bm, pr.ID, "bob answers")
	waitFor(t, "alice to see bob's post", func() bool { return strings.HasSuffix(texts(t, am, pr.ID), "bob answers") })
	stop()

	// Offline: posts wait, in order, across a restart.
	a.net.on.Store(true)
	for i := range 20 {
		a.post(t, am, pr.ID, fmt.Sprintf("offline %d", i))
	}
	if err := a.r.Sync(bg); !IsUnreachable(err) {
		t.Fatalf("a sync pass offline: %v", err)
	}
	a.open(t)
	a.r.UseMessages(am)
	a.net.on.Store(false)
	must(t, a.r.Sync(bg))
	must(t, b.r.Sync(bg))
	want := []string{"before bob joined", "live 0", "live 1", "live 2", "live 3", "live 4", "bob answers"}
	for i := range 20 {
		want = append(want, fmt.Sprintf("offline %d", i))
	}
	for _, d := range []struct {
		who string
		m   *messages.Store
	}{{"alice", am}, {"bob", bm}} {
		if got := texts(t, d.m, pr.ID); got != strings.Join(want, "\n") {
			t.Fatalf("%s's discussion:\n%s", d.who, got)
		}
	}
	var onServer int
	must(t, tm.Pool().QueryRow(bg, `SELECT count(*) FROM messages m JOIN message_channels c ON c.id = m.channel_id
		WHERE c.project_id = $1 AND c.discussion`, pr.ID).Scan(&onServer))
	if onServer != len(want) {
		t.Fatalf("the server holds %d posts of the discussion, want %d", onServer, len(want))
	}

	// Made Local-only with a post still waiting: it stays here.
	a.net.on.Store(true)
	a.post(t, am, pr.ID, "after leaving")
	must(t, a.r.StopSync(bg, pr.ID, true))
	a.net.on.Store(false)
	must(t, a.r.Sync(bg))
	var late int
	must(t, tm.Pool().QueryRow(bg, `SELECT count(*) FROM messages WHERE text = 'after leaving'`).Scan(&late))
	if late != 0 {
		t.Fatal("a post of a project made Local-only reached the server")
	}

	// Local-only stays local.
	a.post(t, am, private.ID, "private thought")
	must(t, a.r.Sync(bg))
	var leaked int
	must(t, tm.Pool().QueryRow(bg, `SELECT count(*) FROM messages WHERE text = 'private thought'`).Scan(&leaked))
	if leaked != 0 {
		t.Fatal("a Local-only project's post reached the server")
	}
}

// openMessages opens the desktop's message channels as the app does and
// hands them to its replica.
func (d *syncDesktop) openMessages(t *testing.T) *messages.Store {
	t.Helper()
	m, err := messages.Open(d.notes.DB(), messages.Options{})
	must(t, err)
	d.r.UseMessages(m)
	return m
}

// post writes in a project's discussion channel as the person does.
func (d *syncDesktop) post(t *testing.T, m *messages.Store, project, text string) {
	t.Helper()
	ch, err := m.ProjectDiscussion(bg, project)
	must(t, err)
	if _, _, err := m.PostMessage(bg, messages.Post{Channel: ch.ID, AuthorKind: messages.AuthorPerson, Author: "me", AuthorName: d.user, Text: text}); err != nil {
		t.Fatal(err)
	}
}

func texts(t *testing.T, m *messages.Store, project string) string {
	t.Helper()
	ch, err := m.ProjectDiscussion(bg, project)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	ms, err := m.ListMessages(bg, ch.ID, 0, messages.MaxListLimit)
	must(t, err)
	var out []string
	for _, x := range ms {
		out = append(out, x.Text)
	}
	return strings.Join(out, "\n")
}
