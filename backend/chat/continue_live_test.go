package chat

import (
	"bytes"
	"context"
	"github.com/osfoundry/desktop/backend/runs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// sessionFile finds the file a CLI keeps a session in under home.
func sessionFile(t *testing.T, home, id string) string {
	t.Helper()
	var found string
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error { //nolint:errcheck // a walk error leaves found empty
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && strings.Contains(filepath.Base(p), id) {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no session file for %s under %s", id, home)
	}
	return found
}

// "Continue here" on a Claude Code session the user made elsewhere, with
// the real claude: the chat's runs fork it (--fork-session), so the user's
// own session file keeps every byte; the model still sees the earlier turn,
// and the second task continues the fork, not the original.
func TestLiveContinueHereLeavesTheOriginalSession(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("Zebra noted."), fakemodel.Text("The word was zebra."), fakemodel.Text("Still zebra."))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: e.Home, Environ: e.Env,
		Path: strings.TrimPrefix(e.Env[0], "PATH=")}})
	ctx := context.Background()
	orig, err := runner.Run(ctx, agentcli.Job{Model: agentcli.ModelClaudeAgent, Folder: e.Work,
		Turns: []agentcli.Turn{{Role: "user", Text: "remember the word zebra"}}})
	if err != nil || orig.SessionID == "" {
		t.Fatalf("the user's own session: %v %+v", err, orig)
	}
	file := sessionFile(t, filepath.Join(e.Home, ".claude", "projects"), orig.SessionID)
	before, err := os.ReadFile(file)
	must(t, err)

	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	must(t, err)
	defer db.Close()
	svc, err := New(ctx, Options{DB: db, Runner: runner, Emitter: &events{}})
	must(t, err)
	defer svc.Close()
	_, err = svc.Roles().SetRoleModel(ctx, "Worker", agentcli.ModelClaudeAgent)
	must(t, err)
	_, err = svc.Roles().AddFolder(ctx, e.Work)
	must(t, err)
	c, err := svc.ContinueHere(ctx, "claude", orig.SessionID, e.Work, "Zebra")
	must(t, err)
	for _, task := range []string{"what was the word?", "and again?"} {
		run, err := svc.Send(ctx, c.ID, task)
		must(t, err)
		svc.Wait(run.ID)
		if got, _ := svc.GetRun(ctx, run.ID); got.State != runs.StateDone {
			t.Fatalf("%q: run %s: %s", task, got.State, got.Error)
		}
	}
	after, err := os.ReadFile(file)
	must(t, err)
	if !bytes.Equal(before, after) {
		t.Fatalf("the original session file changed: %d bytes before, %d after", len(before), len(after))
	}
	// The chat's own runs (a Titling run is no turn of the conversation).
	main := srv.MainRequests()
	if len(main) != 3 || !strings.Contains(string(main[1].Body), "remember the word zebra") || !strings.Contains(string(main[2].Body), "The word was zebra.") {
		t.Fatalf("the continued runs do not carry the earlier turns (%d requests)", len(main))
	}
	d, err := svc.GetChat(ctx, c.ID)
	must(t, err)
	if d.Chat.CLISession == orig.SessionID || d.Chat.CLISession == "" {
		t.Fatalf("the chat still continues the original session %s", d.Chat.CLISession)
	}
	ids := []string{}
	for _, r := range d.Runs {
		ids = append(ids, r.SessionID)
	}
	if slices.Contains(ids, orig.SessionID) {
		t.Fatalf("a run wrote to the original session: %q", ids)
	}
}
