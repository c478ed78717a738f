package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/runs"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/agentcli"
)

func TestCompactionDue(t *testing.T) {
	for _, tc := range []struct {
		name          string
		agent         agentcli.Agent
		promptBytes   int
		contextTokens int
		want          string // a part of the reason; "" = not due
	}{
		{"small prompt", agentcli.Claude, 50_000, 0, ""},
		{"prompt at the threshold", agentcli.Claude, agentcli.MaxPromptBytes * 80 / 100, 0, ""},
		{"prompt past 80% of the command-line limit", agentcli.Claude, 99_000, 0, "the prompt would be 97 KB, over 80% of the 120 KB"},
		{"codex prompt past it too", agentcli.Codex, 110_000, 0, "over 80% of the 120 KB"},
		{"resumed context under 80% of Claude's window", agentcli.Claude, 0, 150_000, ""},
		{"resumed context past 80% of Claude's window", agentcli.Claude, 0, 161_000, "161,000 tokens, over 80% of Claude Code's 200,000-token window"},
		{"the same context fits Codex's window", agentcli.Codex, 0, 161_000, ""},
		{"past 80% of Codex's window", agentcli.Codex, 0, 220_000, "over 80% of Codex's 272,000-token window"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := compactionDue(tc.agent, tc.promptBytes, tc.contextTokens)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("compactionDue = %q, want %q", got, tc.want)
			}
		})
	}
}

// workerCalls are the calls that were neither Titling nor Compaction.
func (r *rig) workerCalls(t *testing.T) []string {
	var out []string
	for _, c := range r.calls(t) {
		argv := strings.Join(c, "\n")
		if !strings.Contains(argv, "Summarise the conversation so far") && !strings.Contains(argv, "title of at most six words") {
			out = append(out, argv)
		}
	}
	return out
}

func sendAndWait(t *testing.T, r *rig, chatID, text string) runs.Run {
	t.Helper()
	run, err := r.svc.Send(context.Background(), chatID, text)
	must(t, err)
	r.svc.Wait(run.ID)
	got, err := r.svc.GetRun(context.Background(), run.ID)
	must(t, err)
	return got
}

// Compact (the chat's button) has the Compaction role summarise the turns
// so far; the next run is sent the summary and the turns after it, in a
// new CLI session, while every message stays in the chat.
func TestCompactReplacesEarlierTurnsForTheNextRun(t *testing.T) {
	r, _ := newRoleRig(t, "Noted", "unused", "SUMMARY-ZEBRA the user wants the word zebra remembered")
	ctx := context.Background()
	_, err := r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	c, err := r.svc.CreateChat(ctx, NewChat{Title: "zebra"})
	must(t, err)
	if _, err := r.svc.Compact(ctx, c.ID); err == nil || !strings.Contains(err.Error(), "nothing to compact") {
		t.Fatalf("compacting an empty chat: %v", err)
	}
	sendAndWait(t, r, c.ID, "remember the word zebra")
	cp, err := r.svc.Compact(ctx, c.ID)
	must(t, err)
	if cp.Summary != "SUMMARY-ZEBRA the user wants the word zebra remembered" || cp.Turns != 2 || cp.Reason != CompactButton || cp.Model != agentcli.ModelClaudeChat {
		t.Fatalf("compaction = %+v", cp)
	}
	summ := r.callsWith(t, "Summarise the conversation so far")
	if len(summ) != 1 || !strings.Contains(strings.Join(summ[0], "\n"), "User: remember the word zebra") || !slices.Contains(summ[0], "--disallowedTools") {
		t.Fatalf("the Compaction run = %q", summ)
	}
	d, err := r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if len(d.Compactions) != 1 || d.Compactions[0].UptoMessageID != d.Messages[1].ID || d.Chat.CLISession != "" {
		t.Fatalf("after Compact: compactions %+v, session %q", d.Compactions, d.Chat.CLISession)
	}
	if _, err := r.svc.Compact(ctx, c.ID); err == nil || !strings.Contains(err.Error(), "nothing to compact") {
		t.Fatalf("compacting twice in a row: %v", err)
	}

	sendAndWait(t, r, c.ID, "what was the word?")
	w := r.workerCalls(t)
	next := w[len(w)-1]
	if !strings.Contains(next, "SUMMARY-ZEBRA") || !strings.Contains(next, "what was the word?") ||
		strings.Contains(next, "remember the word zebra") || strings.Contains(next, "--resume") {
		t.Fatalf("the run after Compact was sent:\n%s", next)
	}
	d, err = r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if len(d.Messages) != 4 || d.Messages[0].Text != "remember the word zebra" {
		t.Fatalf("the person's turns changed: %+v", d.Messages)
	}
	// The run after that continues its own new session, still without
	// the compacted turns.
	sendAndWait(t, r, c.ID, "and now?")
	w = r.workerCalls(t)
	if last := w[len(w)-1]; !strings.Contains(last, "--resume\nsess-1") || strings.Contains(last, "remember the word zebra") {
		t.Fatalf("the third run was sent:\n%s", last)
	}

	must(t, r.svc.EndChat(ctx, c.ID))
	if _, err := r.svc.Compact(ctx, c.ID); err == nil || !strings.Contains(err.Error(), "ended") {
		t.Fatalf("compacting an ended chat: %v", err)
	}
}

// A chat whose CLI session has grown past 80% of the model's window is
// compacted by its next run before the task is sent: the run says so in
// its progress and starts a new session from the summary.
func TestRunCompactsAChatPastTheThreshold(t *testing.T) {
	r, _ := newRoleRig(t, "Noted", "unused", "SUMMARY-OF-A-LONG-CHAT")
	ctx := context.Background()
	_, err := r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	c, err := r.svc.CreateChat(ctx, NewChat{Title: "long"})
	must(t, err)
	must(t, writeFile(r.dir, "context", "120000"))
	sendAndWait(t, r, c.ID, "first task")
	sendAndWait(t, r, c.ID, "second task") // 120,000 tokens: under the threshold, resumed
	if w := r.workerCalls(t); !strings.Contains(w[len(w)-1], "--resume") || len(r.callsWith(t, "Summarise the conversation so far")) != 0 {
		t.Fatal("a chat under the threshold was compacted")
	}
	must(t, writeFile(r.dir, "context", "170000"))
	sendAndWait(t, r, c.ID, "third task") // now reports 170,000
	run := sendAndWait(t, r, c.ID, "fourth task")
	if run.State != runs.StateDone {
		t.Fatalf("run %s: %s", run.State, run.Error)
	}
	if !slices.ContainsFunc(run.Progress, func(p string) bool {
		return strings.HasPrefix(p, "Compacting the earlier conversation first: the context would be 170,") && strings.Contains(p, "Claude Code's 200,000-token window")
	}) || !slices.Contains(run.Progress, "Compacted 6 earlier turns into a summary") {
		t.Fatalf("progress = %q", run.Progress)
	}
	w := r.workerCalls(t)
	last := w[len(w)-1]
	if !strings.Contains(last, "SUMMARY-OF-A-LONG-CHAT") || !strings.Contains(last, "fourth task") || strings.Contains(last, "third task") || strings.Contains(last, "--resume") {
		t.Fatalf("the compacted run was sent:\n%s", last)
	}
	d, err := r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if len(d.Compactions) != 1 || d.Compactions[0].Reason != CompactAuto || d.Compactions[0].UptoMessageID != d.Messages[5].ID {
		t.Fatalf("compactions %+v", d.Compactions)
	}
}

// A conversation too long for the command line fails with a message that
// offers Compact; Compact then summarises it in pieces that fit, and the
// chat goes on.
func TestTooLongChatOffersCompact(t *testing.T) {
	r, _ := newRoleRig(t, "Noted", "unused", "SUMMARY-OF-A-HUGE-PASTE")
	ctx := context.Background()
	_, err := r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	c, err := r.svc.CreateChat(ctx, NewChat{Title: "huge"})
	must(t, err)
	huge := "look at this log:\n" + strings.Repeat("line of a very long log\n", 6000) // 144 KB
	run := sendAndWait(t, r, c.ID, huge)
	if run.State != runs.StateFailed || !strings.Contains(run.Error, "too long") || !strings.Contains(run.Error, "press Compact") {
		t.Fatalf("run %s: %s", run.State, run.Error)
	}
	d, err := r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if !d.TooLong {
		t.Fatal("the chat does not offer Compact after a too-long failure")
	}
	cp, err := r.svc.Compact(ctx, c.ID)
	must(t, err)
	if n := len(r.callsWith(t, "Summarise the conversation so far")); n < 2 || cp.Summary != "SUMMARY-OF-A-HUGE-PASTE" {
		t.Fatalf("%d Compaction calls, summary %q", n, cp.Summary)
	}
	for _, call := range r.callsWith(t, "Summarise the conversation so far") {
		for _, a := range call {
			if len(a) > agentcli.MaxPromptBytes {
				t.Fatalf("a Compaction call was sent %d bytes in one argument", len(a))
			}
		}
	}
	if d, err = r.svc.GetChat(ctx, c.ID); err != nil || d.TooLong {
		t.Fatalf("the chat still offers Compact once compacted (%v)", err)
	}
	run = sendAndWait(t, r, c.ID, "what did the log say?")
	if run.State != runs.StateDone {
		t.Fatalf("after Compact: run %s: %s", run.State, run.Error)
	}
	d, err = r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if d.TooLong {
		t.Error("the chat still offers Compact after it went on")
	}
}

// While Compact works the chat reads Running and takes no task; Cancel
// stops it (its CLI with it) and leaves the chat as it was.
func TestCancelCompactLeavesTheChatAsItWas(t *testing.T) {
	r, _ := newRoleRig(t, "Noted", "unused", "unused")
	ctx := context.Background()
	_, err := r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	c, err := r.svc.CreateChat(ctx, NewChat{Title: "zebra"})
	must(t, err)
	sendAndWait(t, r, c.ID, "remember the word zebra")
	must(t, writeFile(r.dir, "summary-hangs", ""))
	done := make(chan error, 1)
	go func() { _, err := r.svc.Compact(ctx, c.ID); done <- err }()
	var d ChatDetail
	for deadline := time.Now().Add(60 * time.Second); d.Compacting == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		d, err = r.svc.GetChat(ctx, c.ID)
		must(t, err)
	}
	if d.Compacting == "" || d.Chat.State != runs.StateRunning {
		t.Fatalf("while compacting: %q, state %s", d.Compacting, d.Chat.State)
	}
	if card := r.card(t, c.ID); card.State != runs.StateRunning || !strings.HasPrefix(card.Why, "Compacting the conversation with the Compaction role") {
		t.Errorf("the board card while compacting: %+v", card)
	}
	if _, err := r.svc.Send(ctx, c.ID, "and now?"); err == nil || !strings.Contains(err.Error(), "being compacted") {
		t.Errorf("a task sent while compacting: %v", err)
	}
	must(t, r.svc.Cancel(d.Compacting))
	if err := <-done; err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("Compact after Cancel: %v", err)
	}
	d, err = r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if len(d.Compactions) != 0 || d.Compacting != "" || d.Chat.CLISession != "sess-1" || d.Chat.State != runs.StateIdle || len(d.Messages) != 2 {
		t.Fatalf("after Cancel: %d compactions, compacting %q, session %q, state %s, %d messages", len(d.Compactions), d.Compacting, d.Chat.CLISession, d.Chat.State, len(d.Messages))
	}
}

func TestChunkTurns(t *testing.T) {
	log := strings.Repeat("line of a very long build log\n", 5000) // 150 KB in one turn
	turns := []agentcli.Turn{{Role: "user", Text: "what broke?"}, {Role: "assistant", Text: "Send the log."}, {Role: "user", Text: log}}
	parts := chunkTurns(turns, compactChunk)
	if len(parts) != 2 {
		t.Fatalf("%d parts, want 2 (the short turns go with the start of the log)", len(parts))
	}
	for i, p := range parts {
		if len(p) > compactChunk || !strings.HasSuffix(strings.TrimRight(p, "\n"), "log") && i < len(parts)-1 {
			t.Errorf("part %d: %d bytes, ends %q", i, len(p), p[max(0, len(p)-20):])
		}
	}
	if !strings.HasPrefix(parts[0], "User: what broke?\n\nAssistant: Send the log.\n\nUser: line of") {
		t.Errorf("part 0 starts %q", parts[0][:60])
	}
	if got := strings.Count(strings.Join(parts, "\n"), "line of a very long build log"); got != 5000 {
		t.Errorf("%d log lines across the parts, want 5000", got)
	}
	if p := chunkTurns([]agentcli.Turn{{Role: "user", Text: "hi"}}, compactChunk); len(p) != 1 || p[0] != "User: hi" {
		t.Errorf("a short chat: %q", p)
	}
	// A text with no line breaks is cut at a character boundary.
	for _, p := range chunkTurns([]agentcli.Turn{{Role: "user", Text: strings.Repeat("é", 60_000)}}, compactChunk) {
		if !utf8.ValidString(p) || len(p) > compactChunk {
			t.Errorf("a part of %d bytes, valid UTF-8 %v", len(p), utf8.ValidString(p))
		}
	}
}
