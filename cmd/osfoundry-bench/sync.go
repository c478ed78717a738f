package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func init() {
	registerBench(&bench{name: "sync", help: "synced projects: desktop A's edit on desktop B, outbox replay, memory with 10 synced projects",
		run: runBenchSync})
}

// syncDesk is one joined desktop with its notes database and replica.
type syncDesk struct {
	notes *notes.Store
	msgs  *messages.Store
	r     *teamclient.Replica
}

func newSyncDesk(s *pgtest.Session, tm *teamtest.Team, b *teamtest.Browser, user string) syncDesk {
	dir := s.TempDir()
	c := teamclient.New(teamclient.Options{Dir: dir, HTTP: &http.Client{Transport: tm.LB.Client.Transport, Timeout: time.Minute},
		Open: tm.ApproveDesktop(b, user, "allow"), Device: "bench-" + user,
		Secrets: teamclient.TokenFile{Path: filepath.Join(dir, "team-token")}, JoinTimeout: time.Minute})
	if st, err := c.Join(context.Background(), tm.LB.URL); err != nil || st.State != teamclient.Connected {
		s.Fatal(fmt.Errorf("%s joining: %v %v", user, st.State, err))
	}
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	if err != nil {
		s.Fatal(err)
	}
	s.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	if err != nil {
		s.Fatal(err)
	}
	r, err := teamclient.NewReplica(context.Background(), c, st, nil)
	if err != nil {
		s.Fatal(err)
	}
	msgs, err := messages.Open(db, messages.Options{})
	if err != nil {
		s.Fatal(err)
	}
	r.UseMessages(msgs)
	return syncDesk{notes: st, msgs: msgs, r: r}
}

func (d syncDesk) save(noteID, text string) error {
	n, err := d.notes.GetNote(context.Background(), noteID)
	if err != nil {
		return err
	}
	_, err = d.notes.SaveTabAsPerson(context.Background(), noteID, n.Tabs[0].ID, n.Version, text)
	return err
}

func (d syncDesk) text(noteID string) string {
	n, err := d.notes.GetNote(context.Background(), noteID)
	if err != nil || n.Tabs[0].Text == nil {
		return ""
	}
	return *n.Tabs[0].Text
}

func runBenchSync(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench sync", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	edits := fs.Int("edits", 100, "live edits timed from desktop A to desktop B")
	replay := fs.Int("replay", 1000, "offline edits replayed from the outbox")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx := context.Background()
	s := &pgtest.Session{Name: "bench sync", Out: env.Stderr}
	defer s.Close()
	s.Cleanup(teamtest.RemoveBinary)
	fmt.Fprintln(env.Stderr, "bench sync: building osfoundry, starting PostgreSQL and two replicas…")
	teamtest.Binary(s)
	pg, err := pgtest.Start()
	if err != nil {
		s.Fatal(err)
	}
	s.Cleanup(pg.Remove)
	tm := teamtest.StartTeam(s, pg.Database(s), 2)
	if err := tm.Owner.API("POST", tm.LB.URL+"/api/workspaces/"+tm.Workspace+"/members",
		map[string]any{"email": teamtest.People["bob"].Email, "role": "editor"}, nil); err != nil {
		s.Fatal(err)
	}
	a := newSyncDesk(s, tm, tm.Owner, "alice")
	b := newSyncDesk(s, tm, tm.LB.NewBrowser(tm.OP), "bob")
	must := func(err error) {
		if err != nil {
			s.Fatal(err)
		}
	}

	// Ten synced projects of ten Notes each, alice's, joined by bob.
	home, err := a.notes.CreateWorkspace(ctx, "", "Personal")
	must(err)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var first notes.Note
	var art notes.ArticleDoc
	var firstProject string
	for p := range 10 {
		pr, err := a.notes.CreateProject(ctx, home.ID, "", fmt.Sprintf("Project %d", p))
		must(err)
		for n := range 10 {
			note, err := a.notes.CreateNote(ctx, notes.NewNote{Workspace: home.ID, Project: pr.ID, Title: fmt.Sprintf("Note %d", n), Text: "- start"})
			must(err)
			if p == 0 && n == 0 {
				first = note
			}
		}
		if p == 0 {
			kb, err := a.notes.CreateKnowledgeBase(ctx, home.ID, pr.ID, "", "Handbook")
			must(err)
			art, err = a.notes.PutArticle(ctx, kb.ID, "", "Start", "- start")
			must(err)
			firstProject = pr.ID
		}
		_, err = a.r.ShareProject(ctx, tm.Workspace, pr.ID)
		must(err)
		must(a.r.Sync(ctx))
		must(b.r.JoinProject(ctx, tm.Workspace, pr.ID))
	}

	// Live: both running; each edit of A timed until B's database has it.
	run, stop := context.WithCancel(ctx)
	go a.r.Run(run)
	go b.r.Run(run)
	var lat []time.Duration
	for i := range *edits {
		text := fmt.Sprintf("- live edit %d", i)
		t0 := time.Now()
		must(a.save(first.ID, text))
		for b.text(first.ID) != text {
			if time.Since(t0) > time.Minute {
				s.Fatal(fmt.Errorf("edit %d never reached desktop B", i))
			}
			time.Sleep(time.Millisecond)
		}
		lat = append(lat, time.Since(t0))
	}
	// The same for an article and for a post of the project's discussion.
	var artLat, postLat []time.Duration
	for i := range *edits / 4 {
		body := fmt.Sprintf("- article edit %d", i)
		t0 := time.Now()
		cur, err := a.notes.GetArticle(ctx, art.KnowledgeBase, art.ID)
		must(err)
		_, err = a.notes.SaveArticleAsPerson(ctx, art.KnowledgeBase, art.ID, cur.Version, cur.Title, body)
		must(err)
		for {
			got, err := b.notes.GetArticle(ctx, art.KnowledgeBase, art.ID)
			if err == nil && got.Body == body {
				break
			}
			if time.Since(t0) > time.Minute {
				s.Fatal(fmt.Errorf("article edit %d never reached desktop B", i))
			}
			time.Sleep(time.Millisecond)
		}
		artLat = append(artLat, time.Since(t0))
	}
	chA, err := a.msgs.ProjectDiscussion(ctx, firstProject)
	must(err)
	chB, err := b.msgs.ProjectDiscussion(ctx, firstProject)
	must(err)
	for i := range *edits / 4 {
		text := fmt.Sprintf("post %d", i)
		t0 := time.Now()
		_, _, err := a.msgs.PostMessage(ctx, messages.Post{Channel: chA.ID, AuthorKind: messages.AuthorPerson, Author: "alice", Text: text})
		must(err)
		for {
			ms, err := b.msgs.ListMessages(ctx, chB.ID, 0, 1)
			if err == nil && len(ms) == 1 && ms[0].Text == text {
				break
			}
			if time.Since(t0) > time.Minute {
				s.Fatal(fmt.Errorf("post %d never reached desktop B", i))
			}
			time.Sleep(time.Millisecond)
		}
		postLat = append(postLat, time.Since(t0))
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	stop()

	// Offline: the edits wait in A's outbox, then go up in one pass.
	for i := range *replay {
		must(a.save(first.ID, fmt.Sprintf("offline edit %d", i)))
	}
	t0 := time.Now()
	must(a.r.Sync(ctx))
	replayed := time.Since(t0)
	var text string
	must(tm.Pool().QueryRow(ctx, `SELECT data FROM note_tabs WHERE note_id = $1`, first.ID).Scan(&text))
	if want := fmt.Sprintf("offline edit %d", *replay-1); text != want {
		s.Fatal(fmt.Errorf("after the replay the server has %q, want %q", text, want))
	}

	pct := func(lat []time.Duration, p float64) time.Duration {
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		return lat[int(p*float64(len(lat)-1))]
	}
	w := env.Stdout
	fmt.Fprintf(w, "%-62s  %-22s  %-14s\n", "MEASURE", "MEASURED", "TARGET")
	fmt.Fprintf(w, "%-62s  %-22s  %-14s\n", "desktop A's edit on desktop B, p50 / p95 (two replicas, TLS)",
		fmt.Sprintf("%s / %s", ms(pct(lat, 0.5)), ms(pct(lat, 0.95))), "p95 ≤ 300 ms")
	fmt.Fprintf(w, "%-62s  %-22s  %-14s\n", "desktop A's article edit on desktop B, p50 / p95",
		fmt.Sprintf("%s / %s", ms(pct(artLat, 0.5)), ms(pct(artLat, 0.95))), "p95 ≤ 300 ms")
	fmt.Fprintf(w, "%-62s  %-22s  %-14s\n", "desktop A's discussion post on desktop B, p50 / p95",
		fmt.Sprintf("%s / %s", ms(pct(postLat, 0.5)), ms(pct(postLat, 0.95))), "p95 ≤ 300 ms")
	fmt.Fprintf(w, "%-62s  %-22s  %-14s\n", fmt.Sprintf("outbox replay of %d offline edits", *replay),
		fmt.Sprintf("%.2f s", replayed.Seconds()), "≤ 10 s")
	fmt.Fprintf(w, "%-62s  %-22s  %-14s\n", "Go heap of both desktops' replicas with 10 synced projects",
		fmt.Sprintf("+%.1f MiB", float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20)), "")
	fmt.Fprintf(w, "%d CPUs%s\n", runtime.NumCPU(), loadAverage())
	return 0
}
