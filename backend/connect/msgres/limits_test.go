package msgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/forge"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
)

// gitRepo is a repository with one committed file.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-q", "-m", "start"}} {
		if args[0] == "add" {
			must(t, os.WriteFile(filepath.Join(dir, "app.txt"), []byte("one\n"), 0o644))
		}
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Me", "GIT_AUTHOR_EMAIL=me@example.com",
			"GIT_COMMITTER_NAME=Me", "GIT_COMMITTER_EMAIL=me@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	top, err := filepath.EvalSymlinks(dir)
	must(t, err)
	return top
}

// codeRepos is the Code screen's choice per workspace, as the app reads it.
type codeRepos struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *codeRepos) set(ws, repo string) { c.mu.Lock(); c.m[ws] = repo; c.mu.Unlock() }

func (c *codeRepos) repo(_ context.Context, ws string) (string, string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[ws], "", nil
}

// A change set goes to the repository its project is tied to (the one its
// workspace picked on the Code screen) and is refused, saying so, for a
// project tied to none — never to whichever Local Folder is newest.
func TestChangeSetGoesToTheProjectsRepository(t *testing.T) {
	code := &codeRepos{m: map[string]string{}}
	var w *world
	w = newWorld(t, worldOptions{connect: func(o *connect.Options) {
		// w is made by newWorld; the service calls Repos only later.
		o.Repos = func(ctx context.Context, project string) (string, error) {
			return notesres.Repos(w.notes, code.repo)(ctx, project)
		}
	}})
	_, err := w.notes.CreateWorkspace(bg, "ws-other", "Other")
	must(t, err)
	_, err = w.notes.CreateProject(bg, "ws-other", "proj-o", "Elsewhere")
	must(t, err)
	acmeRepo, otherRepo := gitRepo(t), gitRepo(t)
	code.set("ws-other", otherRepo) // the newest repository, of another workspace
	pending, err := w.svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	call := w.goClient(t, "Claude chat")
	must(t, w.svc.AddProject(bg, pending.ID, "proj-a"))
	propose := func() (string, bool) {
		return call("propose_change_set", map[string]any{"project_id": "proj-a", "title": "Two",
			"files": []map[string]string{{"path": "app.txt", "content": "two\n"}}})
	}

	text, isErr := propose()
	if !isErr || !strings.Contains(text, `project "Launch" has no git repository`) || !strings.Contains(text, "Code screen") {
		t.Fatalf("a change set for a project tied to no repository: error=%v %s", isErr, text)
	}
	if ps, _ := w.svc.Proposals(bg, ""); len(ps) != 0 {
		t.Fatalf("it was queued anyway: %+v", ps)
	}

	code.set("ws-acme", acmeRepo)
	text, isErr = propose()
	if isErr {
		t.Fatalf("propose: %s", text)
	}
	ps, err := w.svc.Proposals(bg, "")
	must(t, err)
	if len(ps) != 1 || ps[0].Target != acmeRepo {
		t.Fatalf("the change set of proj-a applies to %+v, want %s (not %s)", ps, acmeRepo, otherRepo)
	}
}

// Every field of the propose_… tools is bounded, and a connection may
// have only so many proposals waiting: an over-limit call is a tool error
// that says the limit, and nothing is queued.
func TestProposalsAreBounded(t *testing.T) {
	repo := gitRepo(t)
	w := newWorld(t, worldOptions{connect: func(o *connect.Options) {
		o.Repos = func(context.Context, string) (string, error) { return repo, nil }
		o.PullRequests = &forge.Opener{} // never reached: every call here is refused first
	}})
	pending, err := w.svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	call := w.goClient(t, "Claude chat")
	must(t, w.svc.AddProject(bg, pending.ID, "proj-a"))

	many := make([]map[string]string, 201)
	for i := range many {
		many[i] = map[string]string{"path": fmt.Sprintf("f%03d.txt", i), "content": "x\n"}
	}
	big := strings.Repeat("0123456789abcde\n", 70_000) // 1.07 MiB
	note, err := w.notes.CreateNote(bg, notes.NewNote{Workspace: "ws-acme", Project: "proj-a", Title: "Imports", Text: "x"})
	must(t, err)
	oneFile := []map[string]string{{"name": "a.md", "content": "a"}}
	manyImports := make([]map[string]string, 51)
	for i := range manyImports {
		manyImports[i] = map[string]string{"name": fmt.Sprintf("f%02d.md", i), "content": "x"}
	}
	importArgs := func(title string, files []map[string]string) map[string]any {
		return map[string]any{"project_id": "proj-a", "into": "note", "destination_id": note.ID, "title": title, "files": files}
	}
	withArg := func(m map[string]any, k string, v any) map[string]any { m[k] = v; return m }
	cases := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"change set title", "propose_change_set", map[string]any{"project_id": "proj-a", "title": strings.Repeat("t", 201),
			"files": []map[string]string{{"path": "a.txt", "content": "a\n"}}}, "title may be at most 200 characters; this one has 201"},
		{"change set details", "propose_change_set", map[string]any{"project_id": "proj-a", "title": "x", "details": strings.Repeat("d", 8001),
			"files": []map[string]string{{"path": "a.txt", "content": "a\n"}}}, "details may be at most 8000 characters"},
		{"change set files", "propose_change_set", map[string]any{"project_id": "proj-a", "title": "x", "files": many},
			"a change set may hold at most 200 files; this one has 201"},
		{"change set text", "propose_change_set", map[string]any{"project_id": "proj-a", "title": "x",
			"files": []map[string]string{{"path": "a.txt", "content": big}}}, "at most 1 MiB of file text in all; this one has 1.1 MiB"},
		{"patch", "propose_change_set", map[string]any{"project_id": "proj-a", "title": "x",
			"patch": "--- a/app.txt\n+++ b/app.txt\n@@ -1 +1 @@\n-one\n+" + big}, "a patch may be at most 1 MiB"},
		{"path", "propose_change_set", map[string]any{"project_id": "proj-a", "title": "x",
			"files": []map[string]string{{"path": strings.Repeat("p", 1025), "content": "a\n"}}}, "a path may be at most 1024 bytes"},
		{"import title", "propose_file_import", importArgs(strings.Repeat("t", 201), oneFile),
			"title may be at most 200 characters"},
		{"import details", "propose_file_import", withArg(importArgs("x", oneFile), "details", strings.Repeat("d", 8001)),
			"details may be at most 8000 characters"},
		{"import files", "propose_file_import", importArgs("x", manyImports),
			"at most 50 files; this one has 51"},
		{"import file name", "propose_file_import", importArgs("x", []map[string]string{{"name": strings.Repeat("n", 201), "content": "a"}}),
			"a name of 1 to 200 characters"},
		{"import text", "propose_file_import", importArgs("x", []map[string]string{{"name": "big.md", "content": big}}),
			"an import may hold at most 1 MiB"},
		{"pull request title", "propose_pull_request", map[string]any{"project_id": "proj-a", "branch": "b", "title": strings.Repeat("t", 201)},
			"title may be at most 200 characters"},
		{"pull request body", "propose_pull_request", map[string]any{"project_id": "proj-a", "branch": "b", "title": "x", "body": strings.Repeat("d", 8001)},
			"body may be at most 8000 characters"},
		{"pull request branch", "propose_pull_request", map[string]any{"project_id": "proj-a", "branch": strings.Repeat("b", 251), "title": "x"},
			"branch may be at most 250 characters"},
	}
	for _, tc := range cases {
		text, isErr := call(tc.tool, tc.args)
		if !isErr || !strings.Contains(text, tc.want) {
			t.Errorf("%s: error=%v %.300s, want an error saying %q", tc.name, isErr, text, tc.want)
		}
	}
	if ps, _ := w.svc.Proposals(bg, ""); len(ps) != 0 {
		t.Fatalf("over-limit proposals were queued: %d", len(ps))
	}

	// Pending proposals per connection.
	var ids []string
	for i := 0; i < connect.MaxPendingProposals; i++ {
		text, isErr := call("propose_file_import", importArgs(fmt.Sprint("import ", i), oneFile))
		if isErr {
			t.Fatalf("proposal %d of %d: %s", i+1, connect.MaxPendingProposals, text)
		}
		var out struct {
			ID string `json:"proposal_id"`
		}
		must(t, json.Unmarshal([]byte(text), &out))
		ids = append(ids, out.ID)
	}
	over := fmt.Sprintf("already has %d proposals waiting for the owner", connect.MaxPendingProposals)
	if text, isErr := call("propose_file_import", importArgs("one more", oneFile)); !isErr || !strings.Contains(text, over) {
		t.Fatalf("proposal %d: error=%v %s", connect.MaxPendingProposals+1, isErr, text)
	}
	if text, isErr := call("propose_change_set", map[string]any{"project_id": "proj-a", "title": "x",
		"files": []map[string]string{{"path": "a.txt", "content": "a\n"}}}); !isErr || !strings.Contains(text, over) {
		t.Fatalf("a change set over the pending limit: error=%v %s", isErr, text)
	}
	// Once the owner decides one, the connection may propose again.
	_, err = w.svc.Decide(bg, ids[0], connect.OwnerID, false)
	must(t, err)
	if text, isErr := call("propose_file_import", importArgs("after a decision", oneFile)); isErr {
		t.Fatalf("after the owner declined one: %s", text)
	}
}

// A connection may post only so many messages a minute: the next post is
// a tool error that says the limit and posts nothing; a minute later it
// may post again.
func TestPostsPerMinuteAreBounded(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	w := newWorld(t, worldOptions{msgs: messages.Options{Now: clock}})
	pending, err := w.svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	call := w.goClient(t, "Claude chat")
	must(t, w.svc.AddProject(bg, pending.ID, "proj-a"))
	post := func(i int) (string, bool) {
		return call("post_channel_message", map[string]any{"channel_id": w.discA.ID, "text": strings.Repeat("é", 4000), "idempotency_key": fmt.Sprint("k", i)})
	}
	for i := 0; i < messages.DefaultPostsPerMinute; i++ {
		if text, isErr := post(i); isErr {
			t.Fatalf("post %d: %s", i+1, text)
		}
	}
	text, isErr := post(messages.DefaultPostsPerMinute)
	if !isErr || !strings.Contains(text, fmt.Sprintf("at most %d messages a minute", messages.DefaultPostsPerMinute)) || !strings.Contains(text, "wait 61 s") {
		t.Fatalf("post %d in the same minute: error=%v %s", messages.DefaultPostsPerMinute+1, isErr, text)
	}
	ms, err := w.msgs.ListMessages(bg, w.discA.ID, 0, messages.MaxListLimit)
	must(t, err)
	if len(ms) != messages.DefaultPostsPerMinute {
		t.Fatalf("%d posts stored, want %d", len(ms), messages.DefaultPostsPerMinute)
	}
	if text, isErr := call("post_channel_message", map[string]any{"channel_id": w.discA.ID, "text": "x", "reply_to": strings.Repeat("r", 101), "idempotency_key": "long-reply"}); !isErr || !strings.Contains(text, "reply_to is a message id (at most 100 characters)") {
		t.Fatalf("a long reply_to: error=%v %s", isErr, text)
	}
	mu.Lock()
	now = now.Add(61 * time.Second)
	mu.Unlock()
	if text, isErr := post(1000); isErr {
		t.Fatalf("a minute later: %s", text)
	}
}
