package teamclient

import (
	"fmt"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// Every channel of a synced project travels, not only its discussion: a
// channel alice made before sharing, with its posts, reaches bob when he
// joins; a channel bob makes later reaches alice, and a post in it shows
// on her desktop live; posts written offline in two channels go up in the
// order they were written, none lost or doubled; posts are only ever
// added; a private channel never leaves alice's desktop.
func testChannelsSync(t *testing.T, tm *teamtest.Team) {
	a, b := aliceAndBob(t, tm)
	am, bm := a.openMessages(t), b.openMessages(t)

	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	pr, err := a.notes.CreateProject(bg, home.ID, "", "Website")
	must(t, err)
	design, err := am.CreateChannel(bg, messages.NewChannel{Workspace: home.ID, Project: pr.ID, Name: "design"})
	must(t, err)
	secret, err := am.CreateChannel(bg, messages.NewChannel{Workspace: home.ID, Project: pr.ID, Name: "alice only", Private: true, Owner: "me"})
	must(t, err)
	if _, err := a.r.ShareProject(bg, tm.Workspace, pr.ID); err != nil {
		t.Fatal(err)
	}
	must(t, a.r.Sync(bg))
	postIn(t, am, design.ID, "alice", "blue or green?")
	postIn(t, am, secret.ID, "alice", "private note")
	must(t, a.r.Sync(bg))
	must(t, b.r.JoinProject(bg, tm.Workspace, pr.ID))
	if ch, err := bm.Channel(bg, design.ID); err != nil || ch.Name != "design" || ch.Project != pr.ID {
		t.Fatalf("bob's copy of the design channel: %+v %v", ch, err)
	}
	if got := channelTexts(t, bm, design.ID); got != "blue or green?" {
		t.Fatalf("bob's design channel after joining: %q", got)
	}
	if _, err := bm.Channel(bg, secret.ID); err == nil {
		t.Fatal("alice's private channel reached bob")
	}

	// Live: bob makes a channel and posts in it; alice sees both.
	stop := runReplicas(a, b)
	bws, err := b.notes.GetProject(bg, pr.ID)
	must(t, err)
	ops, err := bm.CreateChannel(bg, messages.NewChannel{Workspace: bws.Workspace, Project: pr.ID, Name: "ops"})
	must(t, err)
	postIn(t, bm, ops.ID, "bob", "deploy at 5")
	waitFor(t, "alice to see bob's channel and post", func() bool { return channelTexts(t, am, ops.ID) == "deploy at 5" })
	postIn(t, am, design.ID, "alice", "green")
	waitFor(t, "bob to see alice's post", func() bool { return strings.HasSuffix(channelTexts(t, bm, design.ID), "green") })
	stop()

	// Offline: posts in two channels wait, across a restart, and go up in
	// the order they were written.
	a.net.on.Store(true)
	for i := range 10 {
		postIn(t, am, []string{design.ID, ops.ID}[i%2], "alice", fmt.Sprintf("offline %d", i))
	}
	if err := a.r.Sync(bg); !IsUnreachable(err) {
		t.Fatalf("a sync pass offline: %v", err)
	}
	a.open(t)
	a.r.UseMessages(am)
	a.net.on.Store(false)
	must(t, a.r.Sync(bg))
	must(t, b.r.Sync(bg))
	wantDesign := "blue or green?\ngreen\noffline 0\noffline 2\noffline 4\noffline 6\noffline 8"
	wantOps := "deploy at 5\noffline 1\noffline 3\noffline 5\noffline 7\noffline 9"
	for _, d := range []struct {
		who string
		m   *messages.Store
	}{{"alice", am}, {"bob", bm}} {
		if got := channelTexts(t, d.m, design.ID); got != wantDesign {
			t.Fatalf("%s's design channel:\n%s", d.who, got)
		}
		if got := channelTexts(t, d.m, ops.ID); got != wantOps {
			t.Fatalf("%s's ops channel:\n%s", d.who, got)
		}
	}
	rows, err := tm.Pool().Query(bg, `SELECT text FROM messages WHERE text LIKE 'offline %' AND channel_id IN ($1, $2) ORDER BY seq`, design.ID, ops.ID)
	must(t, err)
	var order []string
	for rows.Next() {
		var s string
		must(t, rows.Scan(&s))
		order = append(order, s)
	}
	rows.Close()
	if got := strings.Join(order, ","); got != "offline 0,offline 1,offline 2,offline 3,offline 4,offline 5,offline 6,offline 7,offline 8,offline 9" {
		t.Fatalf("the server took the offline posts in this order: %s", got)
	}
	var leaked int
	must(t, tm.Pool().QueryRow(bg, `SELECT count(*) FROM messages WHERE text = 'private note'`).Scan(&leaked))
	if leaked != 0 {
		t.Fatal("a private channel's post reached the server")
	}
}

// postIn writes in a channel as the person does.
func postIn(t *testing.T, m *messages.Store, channel, who, text string) {
	t.Helper()
	if _, _, err := m.PostMessage(bg, messages.Post{Channel: channel, AuthorKind: messages.AuthorPerson, Author: "me", AuthorName: who, Text: text}); err != nil {
		t.Fatal(err)
	}
}

func channelTexts(t *testing.T, m *messages.Store, channel string) string {
	t.Helper()
	ms, err := m.ListMessages(bg, channel, 0, messages.MaxListLimit)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	var out []string
	for _, x := range ms {
		out = append(out, x.Text)
	}
	return strings.Join(out, "\n")
}
