package teamclient

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// syncDesktop is a joined desktop with its own notes database and replica.
type syncDesktop struct {
	*desktop
	notes  *notes.Store
	r      *Replica
	events *recorder
	user   string
	net    *offline
}

// recorder keeps the events the client sends the window.
type recorder struct {
	mu  sync.Mutex
	got []string
}

func (r *recorder) Emit(event string, payload any) {
	data, _ := json.Marshal(payload)
	r.mu.Lock()
	r.got = append(r.got, event+" "+string(data))
	r.mu.Unlock()
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func (r *recorder) drafts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.got {
		if strings.HasPrefix(e, EventDraft+" ") {
			out = append(out, e)
		}
	}
	return out
}

func newSyncDesktop(t *testing.T, tm *teamtest.Team, b *teamtest.Browser, user string) *syncDesktop {
	t.Helper()
	d := newDesktop(t, tm, approveAs(t, tm, b, user, "allow"))
	rec := &recorder{}
	d.o.Emit = rec
	net := &offline{base: d.o.HTTP.Transport}
	d.o.HTTP.Transport = net
	if st, err := d.Join(bg, tm.LB.URL); err != nil || st.State != Connected {
		t.Fatalf("%s joining: %+v %v", user, st, err)
	}
	sd := &syncDesktop{desktop: d, events: rec, user: user, net: net}
	sd.open(t)
	return sd
}

// open opens the desktop's database, Notes and replica, as the app does
// when it starts (again).
func (d *syncDesktop) open(t *testing.T) {
	t.Helper()
	if d.r != nil {
		d.r.Close()
	}
	db, err := store.Open(filepath.Join(d.dir, "osfoundry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(d.dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReplica(bg, d.Client, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	d.notes, d.r = st, r
}

// edit saves text in the Note's first tab as the person's editor does.
func (d *syncDesktop) edit(t *testing.T, noteID, text string) {
	t.Helper()
	n, err := d.notes.GetNote(bg, noteID)
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.notes.SaveTabAsPerson(bg, noteID, n.Tabs[0].ID, n.Version, text)
	if err != nil || !res.Saved {
		t.Fatalf("saving %s: %+v %v", noteID, res, err)
	}
}

func (d *syncDesktop) text(t *testing.T, noteID string) string {
	t.Helper()
	n, err := d.notes.GetNote(bg, noteID)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return *n.Tabs[0].Text
}

// Two people on two desktops share a project through the server: alice
// moves her Local-only project to Synced, bob joins it, an edit on one
// appears on the other live; both edit offline, one wins and the other
// keeps its text as a draft for compare / re-apply; a thousand offline
// edits go up in order, none lost or doubled; the project she keeps
// Local-only never reaches the server.
func testSyncedProjects(t *testing.T, tm *teamtest.Team) {
	if err := tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/members",
		map[string]any{"email": teamtest.People["bob"].Email, "role": "editor"}, nil); err != nil {
		t.Fatal(err)
	}
	a := newSyncDesktop(t, tm, tm.Owner, "alice")
	b := newSyncDesktop(t, tm, tm.LB.NewBrowser(tm.OP), "bob")

	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	plans, err := a.notes.CreateProject(bg, home.ID, "", "Plans")
	must(t, err)
	private, err := a.notes.CreateProject(bg, home.ID, "", "Private")
	must(t, err)
	q1, err := a.notes.CreateNote(bg, notes.NewNote{Workspace: home.ID, Project: plans.ID, Title: "Q1", Text: "- hire"})
	must(t, err)
	secret, err := a.notes.CreateNote(bg, notes.NewNote{Workspace: home.ID, Project: private.ID, Title: "Salaries", Text: "secret"})
	must(t, err)

	if titles, err := a.r.Preview(bg, plans.ID); err != nil || len(titles) != 1 || titles[0] != "Q1" {
		t.Fatalf("preview: %v %v", titles, err)
	}
	if queued, err := a.r.ShareProject(bg, tm.Workspace, plans.ID); err != nil || queued {
		t.Fatalf("moving Plans to Synced online: queued %v, %v", queued, err)
	}
	must(t, a.r.Sync(bg))
	must(t, b.r.JoinProject(bg, tm.Workspace, plans.ID))
	if got := b.text(t, q1.ID); got != "- hire" {
		t.Fatalf("bob's copy of Q1: %q", got)
	}

	// Live: both desktops running, an edit reaches the other side.
	stop := runReplicas(a, b)
	var lat []time.Duration
	for i := range 5 {
		text := fmt.Sprintf("- hire\n- live %d", i)
		t0 := time.Now()
		a.edit(t, q1.ID, text)
		waitFor(t, "bob to see alice's edit", func() bool { return b.text(t, q1.ID) == text }, a.state(t, q1.ID), b.state(t, q1.ID), server(tm, q1.ID))
		lat = append(lat, time.Since(t0))
		back := text + "\n- from bob"
		b.edit(t, q1.ID, back)
		waitFor(t, "alice to see bob's edit", func() bool { return a.text(t, q1.ID) == back }, a.state(t, q1.ID), b.state(t, q1.ID), server(tm, q1.ID))
	}
	stop()
	t.Logf("alice's edit on bob's desktop after %v", lat)

	// Offline on both: alice syncs first and wins; bob's text is kept.
	base := a.text(t, q1.ID)
	a.edit(t, q1.ID, base+"\n- alice offline")
	b.edit(t, q1.ID, base+"\n- bob offline")
	must(t, a.r.Sync(bg))
	must(t, b.r.Sync(bg))
	if got := b.text(t, q1.ID); got != base+"\n- alice offline" {
		t.Fatalf("bob's Note after losing the race: %q", got)
	}
	n, _ := b.notes.GetNote(bg, q1.ID)
	dr, err := b.notes.GetDraft(bg, q1.ID, n.Tabs[0].ID)
	if err != nil {
		t.Fatalf("bob's text was not kept as a draft: %v", err)
	}
	var draft struct {
		Kind, Base, Mine string
		BaseVersion      int64
	}
	must(t, json.Unmarshal([]byte(dr.Data), &draft))
	if draft.Kind != "text" || draft.Mine != base+"\n- bob offline" || draft.Base != base || draft.BaseVersion >= n.Version {
		t.Fatalf("bob's draft: %+v (note at %d)", draft, n.Version)
	}
	if ev := b.events.drafts(); len(ev) != 1 || !strings.Contains(ev[0], `"owner_id":"`+q1.ID+`"`) || !strings.Contains(ev[0], "bob offline") {
		t.Fatalf("bob's window was told of the draft: %v", ev)
	}

	// A thousand offline edits, replayed in order.
	must(t, b.r.Sync(bg))
	var before int64
	must(t, tm.Pool().QueryRow(bg, `SELECT version FROM notes WHERE id = $1`, q1.ID).Scan(&before))
	for i := range 1000 {
		a.edit(t, q1.ID, fmt.Sprintf("edit %d", i))
	}
	t0 := time.Now()
	must(t, a.r.Sync(bg))
	t.Logf("1,000 offline edits sent in %v", time.Since(t0))
	var after int64
	var text string
	must(t, tm.Pool().QueryRow(bg, `SELECT n.version, t.data FROM notes n JOIN note_tabs t ON t.note_id = n.id WHERE n.id = $1`, q1.ID).Scan(&after, &text))
	if after-before != 1000 || text != "edit 999" {
		t.Fatalf("the server took %d of 1,000 edits, ending with %q", after-before, text)
	}
	must(t, b.r.Sync(bg))
	if got := b.text(t, q1.ID); got != "edit 999" {
		t.Fatalf("bob after the replay: %q", got)
	}

	// What Settings → Team lists, and making a project Local-only again.
	pv, err := a.r.Projects(bg)
	must(t, err)
	if len(pv.Synced) != 1 || pv.Synced[0].ID != plans.ID || len(pv.LocalOnly) != 1 || pv.LocalOnly[0].ID != private.ID {
		t.Fatalf("alice's projects: %+v", pv)
	}
	var roadmap notes.Project
	if err := tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/projects", map[string]string{"name": "Roadmap"}, &roadmap); err != nil {
		t.Fatal(err)
	}
	if pv, err = b.r.Projects(bg); err != nil || len(pv.Shared) != 1 || pv.Shared[0].ID != roadmap.ID || len(pv.Synced) != 1 {
		t.Fatalf("bob's projects: %+v %v", pv, err)
	}
	b.edit(t, q1.ID, "bob, before leaving")
	if err := b.r.StopSync(bg, plans.ID, false); err == nil || !strings.Contains(err.Error(), "have not reached the team server") {
		t.Fatalf("making a project with a waiting edit Local-only: %v", err)
	}
	must(t, b.r.StopSync(bg, plans.ID, true))
	b.edit(t, q1.ID, "bob, after leaving")
	must(t, b.r.Sync(bg))
	var server string
	must(t, tm.Pool().QueryRow(bg, `SELECT data FROM note_tabs WHERE note_id = $1`, q1.ID).Scan(&server))
	if server != "edit 999" || b.text(t, q1.ID) != "bob, after leaving" {
		t.Fatalf("after bob made it Local-only: the server has %q, bob %q", server, b.text(t, q1.ID))
	}

	// Local-only stays local.
	var leaked int
	must(t, tm.Pool().QueryRow(bg, `SELECT count(*) FROM notes WHERE id = $1 OR project_id = $2`, secret.ID, private.ID).Scan(&leaked))
	if leaked != 0 {
		t.Fatal("a Local-only project's Note reached the server")
	}
}

func waitFor(t *testing.T, what string, ok func() bool, state ...func() string) {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(end) {
			var why []string
			for _, f := range state {
				why = append(why, f())
			}
			t.Fatalf("timed out waiting for %s %v", what, why)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// state says where a desktop's replica stands with a Note, for a failure.
func (d *syncDesktop) state(t *testing.T, noteID string) func() string {
	return func() string {
		var queued, problems int
		var cursor string
		d.r.db.QueryRow(`SELECT count(*), count(*) FILTER (WHERE problem <> '') FROM team_sync_outbox WHERE note_id = ?`, noteID).Scan(&queued, &problems)
		d.r.db.QueryRow(`SELECT group_concat(cursor) FROM team_sync_cursors`).Scan(&cursor)
		c, known, _ := d.r.serverCopy(bg, noteID)
		n, _ := d.notes.GetNote(bg, noteID)
		return fmt.Sprintf("%s: local v%d %q, server copy v%d (known %v), %d queued (%d refused), cursor %s",
			d.user, n.Version, d.text(t, noteID), c.version, known, queued, problems, cursor)
	}
}

// aliceAndBob opens alice's and bob's desktops, bob an editor of the
// team workspace (he may be one already).
func aliceAndBob(t *testing.T, tm *teamtest.Team) (a, b *syncDesktop) {
	t.Helper()
	_ = tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/members",
		map[string]any{"email": teamtest.People["bob"].Email, "role": "editor"}, nil)
	return newSyncDesktop(t, tm, tm.Owner, "alice"), newSyncDesktop(t, tm, tm.LB.NewBrowser(tm.OP), "bob")
}

// runReplicas runs each desktop's replica as the app does; stop ends
// them and returns once no pass of theirs runs any more, so what follows
// is not raced by a pass still under way.
func runReplicas(ds ...*syncDesktop) (stop func()) {
	ctx, cancel := context.WithCancel(bg)
	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Go(func() { d.r.Run(ctx) })
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			wg.Wait()
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// server says what the team server holds of a Note, for a failure.
func server(tm *teamtest.Team, noteID string) func() string {
	return func() string {
		var v int64
		var text string
		var changes int
		tm.Pool().QueryRow(bg, `SELECT n.version, t.data FROM notes n JOIN note_tabs t ON t.note_id = n.id WHERE n.id = $1`, noteID).Scan(&v, &text)
		tm.Pool().QueryRow(bg, `SELECT count(*) FROM sync_changes WHERE item_id = $1`, noteID).Scan(&changes)
		return fmt.Sprintf("server: v%d %q, %d changes recorded", v, text, changes)
	}
}
