package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/runs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// Titling and Compaction with the real Claude Code against the fake model:
// after the first answer the Titling role's answer becomes the chat's
// title; Compact sends the Compaction role the conversation, and the next
// task's request carries the summary and the new task, not the older turns.
func TestLiveTitlingAndCompactionWithClaude(t *testing.T) {
	srv := fakemodel.Start(t,
		fakemodel.Text("Noted: zebra."),
		fakemodel.Text("SUMMARY-7731: the person wants zebra kept in mind."),
		fakemodel.Text("The word was zebra."),
	)
	srv.PushTitle(fakemodel.Text(`"Remembering the zebra word."`))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	must(t, err)
	defer db.Close()
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: e.Home, Environ: e.Env,
		Path: strings.TrimPrefix(e.Env[0], "PATH=")}})
	l := &logs{}
	svc, err := New(context.Background(), Options{DB: db, Runner: runner, Emitter: &events{}, Logf: l.logf})
	must(t, err)
	defer svc.Close()
	ctx := context.Background()
	for role, model := range map[string]string{"Worker": agentcli.ModelClaudeAgent, "Titling": agentcli.ModelClaudeChat, "Compaction": agentcli.ModelClaudeChat} {
		_, err = svc.Roles().SetRoleModel(ctx, role, model)
		must(t, err)
	}
	_, err = svc.Roles().AddFolder(ctx, e.Work)
	must(t, err)
	c, err := svc.CreateChat(ctx, NewChat{Title: "remember the word zebra"})
	must(t, err)

	run, err := svc.Send(ctx, c.ID, "remember the word zebra")
	must(t, err)
	svc.Wait(run.ID)
	svc.titling.Wait()
	d, err := svc.GetChat(ctx, c.ID)
	must(t, err)
	if d.Chat.Title != "Remembering the zebra word" {
		t.Fatalf("title %q (run %s %q; log %q)", d.Chat.Title, d.Runs[0].State, d.Runs[0].Error, l.text())
	}
	titles := srv.TitleRequests()
	if len(titles) != 1 || !strings.Contains(string(titles[0].Body), "remember the word zebra") || len(srv.MainRequests()) != 1 {
		t.Fatalf("the Titling request: %d titling and %d main requests", len(titles), len(srv.MainRequests()))
	}

	cp, err := svc.Compact(ctx, c.ID)
	must(t, err)
	if cp.Summary != "SUMMARY-7731: the person wants zebra kept in mind." {
		t.Fatalf("summary %q", cp.Summary)
	}
	main := srv.MainRequests()
	if len(main) != 2 || !strings.Contains(string(main[1].Body), "Summarise the conversation so far") || !strings.Contains(string(main[1].Body), "User: remember the word zebra") {
		t.Fatalf("the Compaction request: %d main requests", len(main))
	}

	run, err = svc.Send(ctx, c.ID, "what was the word?")
	must(t, err)
	svc.Wait(run.ID)
	if got, _ := svc.GetRun(ctx, run.ID); got.State != runs.StateDone || got.Text != "The word was zebra." {
		t.Fatalf("the task after Compact: %s %q %q", got.State, got.Text, got.Error)
	}
	main = srv.MainRequests()
	next := string(main[len(main)-1].Body)
	if !strings.Contains(next, "SUMMARY-7731") || !strings.Contains(next, "what was the word?") ||
		strings.Contains(next, "remember the word zebra") || strings.Contains(next, "Noted: zebra.") {
		for _, w := range []string{"remember the word zebra", "Noted: zebra."} {
			if i := strings.Index(next, w); i >= 0 {
				t.Logf("%q at %d: …%s…", w, i, next[max(0, i-300):min(len(next), i+100)])
			}
		}
		t.Fatalf("the request after Compact still carries the older turns, or not the summary:\n%s", next[:min(len(next), 2000)])
	}
	// Without Compact the run would resume the chat's session: the first
	// task, its answer and the new task. Now it starts a new one.
	msgs, _ := main[len(main)-1].JSON()["messages"].([]any)
	turns := 0
	for _, m := range msgs {
		if r, _ := m.(map[string]any)["role"].(string); r == "user" || r == "assistant" {
			turns++
		}
	}
	if turns != 1 {
		t.Fatalf("the request after Compact carries %d turns, want the one with the summary and the task", turns)
	}
	d, err = svc.GetChat(ctx, c.ID)
	must(t, err)
	if len(d.Messages) != 4 || d.Messages[0].Text != "remember the word zebra" || len(d.Compactions) != 1 {
		t.Fatalf("the chat after Compact: %d messages, %d compactions", len(d.Messages), len(d.Compactions))
	}
}
