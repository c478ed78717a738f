package review

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestChangesListCommittedUncommittedAndNewFiles(t *testing.T) {
	r := newRig(t)
	wt := r.wt(0)
	write(t, filepath.Join(wt, "app.js"), "one\ntwo\nTHREE\nfour\nfive\nsix\n")
	git(t, wt, "commit", "-qam", "edit app")
	write(t, filepath.Join(wt, "docs", "notes with space.md"), "a\nb\n")
	write(t, filepath.Join(wt, "blob.bin"), "x\x00y")
	rv, err := r.svc.Review("p1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]File{}
	for _, f := range rv.Files {
		got[f.Path] = f
	}
	if len(rv.Files) != 3 {
		t.Fatalf("files = %+v", rv.Files)
	}
	app := got["app.js"]
	if app.Status != "modified" || app.Added != 2 || app.Removed != 1 || !strings.Contains(app.Patch, "-three\n+THREE\n") || !strings.HasPrefix(app.Patch, "diff --git a/app.js b/app.js\n") {
		t.Errorf("app.js = %+v", app)
	}
	notes := got["docs/notes with space.md"]
	if notes.Status != "added" || notes.Added != 2 || !strings.Contains(notes.Patch, "@@ -0,0 +1,2 @@\n+a\n+b\n") {
		t.Errorf("new file = %+v", notes)
	}
	if b := got["blob.bin"]; !b.Binary || b.Patch != "" {
		t.Errorf("binary = %+v", b)
	}
	if rv.Files[0].Path != "app.js" || rv.Files[2].Path != "docs/notes with space.md" {
		t.Errorf("not in path order: %v %v %v", rv.Files[0].Path, rv.Files[1].Path, rv.Files[2].Path)
	}
}

func TestReviewRefusesAPaneWithoutBranch(t *testing.T) {
	r := newRig(t)
	r.panes.panes[0].Branch = nil
	if _, err := r.svc.Review("p1"); err == nil || !strings.Contains(err.Error(), "On a new branch") {
		t.Errorf("err = %v", err)
	}
	if _, err := r.svc.Review("nope"); err == nil || !strings.Contains(err.Error(), "no such pane") {
		t.Errorf("err = %v", err)
	}
}

func TestCommentsAreKeptUntilResolvedAndSentAsOneMessage(t *testing.T) {
	r := newRig(t)
	if _, err := r.svc.AddComment("p1", Comment{Path: "app.js", Line: 3, Side: "new", Text: "  "}); err == nil {
		t.Error("an empty comment was kept")
	}
	a, err := r.svc.AddComment("p1", Comment{Path: "app.js", Line: 3, Side: "new", Text: "Use lower case\nlike the rest"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.AddComment("p1", Comment{Path: "README.md", Line: 1, Side: "old", Text: "Keep this line"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Send("p1"); !errors.Is(err, ErrNoAgent) {
		t.Fatalf("send without an agent: %v", err)
	}
	r.agent.set("working")
	d, err := r.svc.Send("p1")
	if err != nil || d.State != "queued" || d.Count != 2 || !r.svc.Queued("p1") {
		t.Fatalf("send while working = %+v, %v", d, err)
	}
	r.svc.AgentChanged("p1") // still working
	if len(r.agent.sent()) != 0 {
		t.Fatal("typed into a working agent")
	}
	r.agent.set("idle")
	r.svc.AgentChanged("p1")
	sent := r.agent.sent()
	want := "Review comments on osf/one — please address each: (1) README.md:1 (removed line) — Keep this line; (2) app.js:3 — Use lower case like the rest."
	if len(sent) != 1 || sent[0] != want || r.svc.Queued("p1") {
		t.Fatalf("sent %q, want one message %q", sent, want)
	}
	rv, _ := r.svc.Review("p1")
	if len(rv.Comments) != 2 || rv.Comments[1].SentAt == 0 {
		t.Errorf("comments after sending = %+v (kept until resolved, marked sent)", rv.Comments)
	}
	if err := r.svc.Resolve("p1", a.ID); err != nil {
		t.Fatal(err)
	}
	if err := r.svc.Resolve("p1", a.ID); !errors.Is(err, ErrNoComment) {
		t.Errorf("resolving twice: %v", err)
	}
	d, err = r.svc.Send("p1")
	if err != nil || d.State != "sent" || d.Count != 1 || len(r.agent.sent()) != 2 {
		t.Errorf("send while idle = %+v %v, typed %q", d, err, r.agent.sent())
	}
}

func TestTwoBranchesKeepTheirOwnComments(t *testing.T) {
	r := newRig(t, "one", "two")
	if _, err := r.svc.AddComment("p1", Comment{Path: "app.js", Line: 1, Side: "new", Text: "for one"}); err != nil {
		t.Fatal(err)
	}
	rv, err := r.svc.Review("p2")
	if err != nil || len(rv.Comments) != 0 {
		t.Errorf("p2 sees %+v, %v", rv.Comments, err)
	}
}

func TestArchiveRemovesTheWorktreeAndKeepsTheBranch(t *testing.T) {
	r := newRig(t, "one", "two")
	write(t, filepath.Join(r.wt(0), "new.txt"), "x\n")
	err := r.svc.Archive("p1", ArchiveRequest{})
	if err == nil || !strings.Contains(err.Error(), "1 uncommitted file") || len(r.panes.closed) != 0 {
		t.Fatalf("archive with uncommitted work: %v (closed %v)", err, r.panes.closed)
	}
	if err := r.svc.Archive("p1", ArchiveRequest{Discard: true}); err != nil {
		t.Fatal(err)
	}
	if len(r.panes.closed) != 1 || r.panes.closed[0] != "p1" {
		t.Errorf("closed %v, want the pane p1", r.panes.closed)
	}
	wt := filepath.Join(filepath.Dir(r.repo), "shop.osf-worktrees", "one")
	if _, err := os.Stat(wt); err == nil {
		t.Error("the worktree folder is still there")
	}
	if git(t, r.repo, "branch", "--list", "osf/one") == "" {
		t.Error("the branch was deleted")
	}
	if err := r.svc.Archive("p2", ArchiveRequest{DeleteBranch: true}); err != nil {
		t.Fatal(err)
	}
	if git(t, r.repo, "branch", "--list", "osf/two") != "" {
		t.Error("the branch asked to be deleted is still there")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(r.repo), "shop.osf-worktrees")); err == nil {
		t.Error("the empty worktrees folder is left")
	}
}
