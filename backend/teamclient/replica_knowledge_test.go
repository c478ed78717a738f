package teamclient

import (
	"fmt"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// Knowledge bases travel with a synced project: alice's base and article
// reach the server when she moves the project to Synced and bob's desktop
// when he syncs it; an edit on one appears on the other live; both edit
// the same article offline, one wins and the other keeps the person's
// text as a "(your version)" article beside it, which goes up in turn;
// edits made offline go up when the server is back; a Local-only
// project's knowledge base never reaches the server.
func testKnowledgeSync(t *testing.T, tm *teamtest.Team) {
	a, b := aliceAndBob(t, tm)

	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	hb, err := a.notes.CreateProject(bg, home.ID, "", "Handbook")
	must(t, err)
	private, err := a.notes.CreateProject(bg, home.ID, "", "Private")
	must(t, err)
	kb, err := a.notes.CreateKnowledgeBase(bg, home.ID, hb.ID, "", "Onboarding")
	must(t, err)
	art, err := a.notes.PutArticle(bg, kb.ID, "", "Laptop", "Ask IT for a laptop.")
	must(t, err)
	secretKB, err := a.notes.CreateKnowledgeBase(bg, home.ID, private.ID, "", "Salaries")
	must(t, err)
	_, err = a.notes.PutArticle(bg, secretKB.ID, "", "2027", "secret")
	must(t, err)

	if titles, err := a.r.Preview(bg, hb.ID); err != nil || len(titles) != 1 || titles[0] != "Knowledge base Onboarding (1 articles)" {
		t.Fatalf("preview: %q %v", titles, err)
	}
	if _, err := a.r.ShareProject(bg, tm.Workspace, hb.ID); err != nil {
		t.Fatal(err)
	}
	must(t, a.r.Sync(bg))
	if got := serverArticle(tm, art.ID)(); got != "v1 \"Ask IT for a laptop.\" in "+kb.ID {
		t.Fatalf("the server's article after the move: %s", got)
	}
	must(t, b.r.JoinProject(bg, tm.Workspace, hb.ID))
	if got := b.article(t, kb.ID, art.ID); got != "Ask IT for a laptop." {
		t.Fatalf("bob's copy: %q", got)
	}

	// Live: an edit on one desktop appears on the other.
	stop := runReplicas(a, b)
	a.saveArticle(t, kb.ID, art.ID, "Ask IT for a laptop. Bring your badge.")
	waitFor(t, "bob to see alice's article edit", func() bool {
		return b.article(t, kb.ID, art.ID) == "Ask IT for a laptop. Bring your badge."
	}, b.articleState(kb.ID, art.ID), serverArticle(tm, art.ID))
	b.saveArticle(t, kb.ID, art.ID, "Bob: the badge comes first.")
	waitFor(t, "alice to see bob's article edit", func() bool {
		return a.article(t, kb.ID, art.ID) == "Bob: the badge comes first."
	}, a.articleState(kb.ID, art.ID), serverArticle(tm, art.ID))
	stop()

	// Offline on both: alice syncs first and wins; bob's text is kept.
	a.saveArticle(t, kb.ID, art.ID, "alice offline")
	b.saveArticle(t, kb.ID, art.ID, "bob offline")
	must(t, a.r.Sync(bg))
	must(t, b.r.Sync(bg))
	if got := b.article(t, kb.ID, art.ID); got != "alice offline" {
		t.Fatalf("bob's article after losing the race: %q", got)
	}
	kept := b.findArticle(t, kb.ID, "Laptop (your version)")
	if kept.Body != "bob offline" {
		t.Fatalf("bob's kept copy: %+v", kept)
	}
	if !strings.Contains(strings.Join(b.events.all(), "\n"), EventKept+` {"knowledgeBaseId":"`+kb.ID+`","articleId":"`+art.ID+`","copyId":"`+kept.ID+`"`) {
		t.Fatalf("bob's window was not told of the kept copy: %v", b.events.all())
	}
	must(t, b.r.Sync(bg)) // the kept copy goes up in turn
	if got := serverArticle(tm, kept.ID)(); !strings.Contains(got, `"bob offline"`) {
		t.Fatalf("the kept copy on the server: %s", got)
	}
	must(t, a.r.Sync(bg))
	if got := a.findArticle(t, kb.ID, "Laptop (your version)"); got.Body != "bob offline" {
		t.Fatalf("alice does not see bob's kept version: %+v", got)
	}

	// Edits made with no network go up when it is back.
	a.net.on.Store(true)
	for i := range 50 {
		a.saveArticle(t, kb.ID, art.ID, fmt.Sprintf("offline edit %d", i))
	}
	if err := a.r.Sync(bg); !IsUnreachable(err) {
		t.Fatalf("a sync pass offline: %v", err)
	}
	a.open(t) // and the app restarted meanwhile
	a.net.on.Store(false)
	must(t, a.r.Sync(bg))
	if got := serverArticle(tm, art.ID)(); !strings.Contains(got, `"offline edit 49"`) {
		t.Fatalf("the server after the offline edits: %s", got)
	}
	must(t, b.r.Sync(bg))
	if got := b.article(t, kb.ID, art.ID); got != "offline edit 49" {
		t.Fatalf("bob after the offline edits: %q", got)
	}

	// Local-only stays local.
	var leaked int
	must(t, tm.Pool().QueryRow(bg, `SELECT count(*) FROM knowledge_bases WHERE id = $1 OR project_id = $2`, secretKB.ID, private.ID).Scan(&leaked))
	if leaked != 0 {
		t.Fatal("a Local-only project's knowledge base reached the server")
	}
}

func (d *syncDesktop) article(t *testing.T, kbID, id string) string {
	t.Helper()
	a, err := d.notes.GetArticle(bg, kbID, id)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return a.Body
}

// articleState says where a desktop's replica stands with an article,
// for a failure.
func (d *syncDesktop) articleState(kbID, id string) func() string {
	return func() string {
		a, err := d.notes.GetArticle(bg, kbID, id)
		c, cerr := d.r.item(bg, "article", id)
		return fmt.Sprintf("%s: local v%d %q (%v), server copy v%d of local v%d (known %v, problem %q, %v)",
			d.user, a.Version, a.Body, err, c.server, c.local, c.known, c.problemAt, cerr)
	}
}

// saveArticle saves the body as the person's knowledge editor does.
func (d *syncDesktop) saveArticle(t *testing.T, kbID, id, body string) {
	t.Helper()
	a, err := d.notes.GetArticle(bg, kbID, id)
	must(t, err)
	res, err := d.notes.SaveArticleAsPerson(bg, kbID, id, a.Version, a.Title, body)
	if err != nil || !res.Saved {
		t.Fatalf("saving article %s: %+v %v", id, res, err)
	}
}

func (d *syncDesktop) findArticle(t *testing.T, kbID, title string) notes.ArticleDoc {
	t.Helper()
	list, err := d.notes.ListArticles(bg, kbID)
	must(t, err)
	for _, a := range list {
		if a.Title == title {
			full, err := d.notes.GetArticle(bg, kbID, a.ID)
			must(t, err)
			return full
		}
	}
	t.Fatalf("%s has no article %q", d.user, title)
	return notes.ArticleDoc{}
}

// serverArticle says what the team server holds of an article.
func serverArticle(tm *teamtest.Team, id string) func() string {
	return func() string {
		var v int64
		var body, kb string
		if err := tm.Pool().QueryRow(bg, `SELECT version, body, knowledge_base_id FROM knowledge_articles WHERE id = $1`, id).Scan(&v, &body, &kb); err != nil {
			return "server: " + err.Error()
		}
		return fmt.Sprintf("v%d %q in %s", v, body, kb)
	}
}
