//go:build linux

package chat_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
)

// A fake claude that starts and then works until it is ended.
const hangingClaude = "#!/bin/sh\necho '{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s-1\"}'\nexec sleep 300\n"

// A chat's run in progress pauses from the board: the card moves to board.Paused
// (with Pause offered), resumes to board.Running, and a paused chat ends
// through the board.Done flow.
func TestPipelineChatPausesOnTheBoard(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	folder := filepath.Join(dir, "shop-web")
	for _, d := range []string{bin, folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(hangingClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: dir, Path: bin,
		Environ: []string{"PATH=" + bin + ":/usr/bin:/bin"}}})
	svc, err := chat.New(ctx, chat.Options{DB: db, Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if _, err := svc.Roles().SetRoleModel(ctx, "Worker", "cli:claude:agent"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Roles().AddFolder(ctx, folder); err != nil {
		t.Fatal(err)
	}
	chat, err := svc.CreateChat(ctx, chat.NewChat{Title: "Checkout copy"})
	if err != nil {
		t.Fatal(err)
	}
	em := &cardsEmitter{}
	b := board.New(t.TempDir(), em)
	b.Add("pipeline", boardSource(svc, b.Changed))
	key := "pipeline/" + chat.ID
	if _, err := svc.Send(ctx, chat.ID, "rewrite the checkout copy"); err != nil {
		t.Fatal(err)
	}
	if c := b.Cards()[0]; c.State != board.Running || !c.CanPause {
		t.Fatalf("running chat card = %+v", c)
	}
	since := time.Now()
	if err := b.Pause(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, board.Paused, since)
	c := b.Cards()[0]
	if c.State != board.Paused || !c.CanPause || !strings.HasPrefix(c.Why, "Paused — Claude Code is frozen") {
		t.Errorf("paused chat card = %+v", c)
	}
	since = time.Now()
	if err := b.Resume(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, board.Running, since)
	if err := b.Drop(key, board.Done); err != board.ErrStillRunning {
		t.Errorf("dropping a running chat on board.Done: %v", err)
	}
	if err := b.Pause(key); err != nil {
		t.Fatal(err)
	}
	if err := b.Drop(key, board.Done); err != nil {
		t.Fatalf("paused chat on board.Done: %v", err)
	}
	if _, err := b.End(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, board.Done, since)
}

// An agent run paused from the board ends through the board.Done flow like a
// chat: its card lands in board.Done (not board.Failed, though the run is stopped) and
// stays there; the summary names Claude Code's own session and how to
// resume it.
func TestPausedAgentRunEndsInDone(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	folder := filepath.Join(dir, "shop-web")
	for _, d := range []string{bin, folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(hangingClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: dir, Path: bin,
		Environ: []string{"PATH=" + bin + ":/usr/bin:/bin"}}})
	sessionSeen := make(chan struct{})
	var seen sync.Once
	svc, err := chat.New(ctx, chat.Options{DB: db, Runner: runner, Emitter: emitFunc(func(name string, payload any) {
		if ev, ok := payload.(runs.RunEvent); ok && ev.Kind == agentcli.KindSession {
			seen.Do(func() { close(sessionSeen) })
		}
	})})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if _, err := svc.Roles().AddFolder(ctx, folder); err != nil {
		t.Fatal(err)
	}
	agent, err := svc.Roles().SaveAgent(ctx, roles.Agent{Name: "Release helper", ModelPreference: "cli:claude:agent", RuntimeRole: "Worker"})
	if err != nil {
		t.Fatal(err)
	}
	em := &cardsEmitter{}
	b := board.New(t.TempDir(), em)
	b.SetSessions(resumePlans{"claude|s-1": {Folder: folder, Argv: []string{"claude", "--resume", "s-1"}}})
	b.Add("pipeline", boardSource(svc, b.Changed))
	run, err := svc.Pipeline().RunAgent(ctx, agent.ID, "write the release notes", false)
	if err != nil {
		t.Fatal(err)
	}
	key := "pipeline/" + run.ID
	// board.Paused once Claude Code has said which session it is (its first line).
	select {
	case <-sessionSeen:
	case <-time.After(10 * time.Second):
		t.Fatal("the run never reported its session")
	}
	since := time.Now()
	if err := b.Pause(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, board.Paused, since)
	if err := b.Drop(key, board.Done); err != nil {
		t.Fatalf("paused agent run on board.Done: %v", err)
	}
	path, err := b.End(key)
	if err != nil {
		t.Fatalf("ending a paused agent run: %v", err)
	}
	em.waitColumn(t, key, board.Done, since)
	time.Sleep(90 * time.Millisecond) // three of the board's 30 ms event coalescing windows
	for _, c := range b.Cards() {
		if c.Key == key && (c.State != board.Done || c.Summary != path) {
			t.Errorf("the ended run's card = %+v, want Done with its summary", c)
		}
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"- Kind: Agent", "- Agent: Claude Code", "- Agent session: `s-1`", "- Resume: `cd " + folder + " && claude --resume s-1`"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
}

type emitFunc func(name string, payload any)

func (f emitFunc) Emit(name string, payload any) { f(name, payload) }

// A chat whose answer ends in a JSON block shows the answer's prose on its
// card, not the block's closing brace.
func TestChatCardShowsProseNotTrailingJSON(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	folder := filepath.Join(dir, "shop-web")
	for _, d := range []string{bin, folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	answer := `{"type":"result","subtype":"success","is_error":false,"session_id":"s-2","result":"I set the retry policy; the file now reads:\n{\n  \"retries\": 3\n}"}`
	script := "#!/bin/sh\necho '{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s-2\"}'\ncat <<'EOF'\n" + answer + "\nEOF\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: dir, Path: bin,
		Environ: []string{"PATH=" + bin + ":/usr/bin:/bin"}}})
	svc, err := chat.New(ctx, chat.Options{DB: db, Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if _, err := svc.Roles().SetRoleModel(ctx, "Worker", "cli:claude:agent"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Roles().AddFolder(ctx, folder); err != nil {
		t.Fatal(err)
	}
	chat, err := svc.CreateChat(ctx, chat.NewChat{Title: "Retry policy"})
	if err != nil {
		t.Fatal(err)
	}
	run, err := svc.Send(ctx, chat.ID, "set the retry policy")
	if err != nil {
		t.Fatal(err)
	}
	svc.Wait(run.ID)
	b := board.New(t.TempDir(), nil)
	b.Add("pipeline", boardSource(svc, nil))
	c := b.Cards()[0]
	if c.Why != "I set the retry policy; the file now reads:" {
		t.Errorf("chat card line = %q, want the answer's prose", c.Why)
	}
}

// resumePlans answers the board's resume plans by agent|session id.
type resumePlans map[string]board.ResumePlan

func (resumePlans) Latest(string, string, time.Time) (board.AgentSession, bool) {
	return board.AgentSession{}, false
}

func (p resumePlans) Plan(agent, id string) (board.ResumePlan, error) {
	if r, ok := p[agent+"|"+id]; ok {
		return r, nil
	}
	return board.ResumePlan{}, errors.New("no such session")
}
