package chat

import (
	"context"
	"errors"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/runs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/tools"
)

func TestRoleAssignment(t *testing.T) {
	r := newRig(t, "ok", "done")
	ctx := context.Background()
	tests := []struct {
		role, model, wantErr string
	}{
		{"Worker", "cli:claude", "use 'cli:claude:agent'"},
		{"Worker", "cli:codex", "codex has no tool-less chat mode — use 'cli:codex:agent' for an autonomous run instead."},
		{"Titling", "cli:claude", ""},
		{"worker", "cli:claude:agent", ""},
		{"Compaction", "cli:codex:agent", ""},
		{"Janitor", "cli:claude", "unknown role"},
	}
	for _, tc := range tests {
		_, err := r.svc.Roles().SetRoleModel(ctx, tc.role, tc.model)
		if (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s ← %s: err %v, want %q", tc.role, tc.model, err, tc.wantErr)
		}
	}
	rs, err := r.svc.Roles().Roles(ctx)
	must(t, err)
	got := map[string]string{}
	for _, ro := range rs {
		got[ro.Name] = ro.Model
	}
	// Researcher was not assigned: it plays on the installed Claude Code.
	if got["Worker"] != "cli:claude:agent" || got["Titling"] != "cli:claude" || got["Researcher"] != "cli:claude:agent" {
		t.Errorf("roles = %v", got)
	}
	_, err = r.svc.Roles().SetEnabled(ctx, "claude", false)
	must(t, err)
	if _, err := r.svc.Roles().RoleModel(ctx, "Researcher"); !errors.Is(err, roles.ErrNoModel) || !strings.Contains(err.Error(), "Pipeline → Pipeline Roles") {
		t.Errorf("unassigned role: %v", err)
	}
}

func TestModelGroups(t *testing.T) {
	r := newRig(t, "ok", "done")
	ctx := context.Background()
	groups, err := r.svc.Roles().ModelGroups(ctx, "Worker")
	must(t, err)
	g := groups[0]
	if g.Label != "CLI agents" || g.Provider != "External AI (subscription)" || g.Note != "autonomous — runs in your local folder" {
		t.Fatalf("group = %+v", g)
	}
	avail := map[string]roles.ModelOption{}
	for _, m := range g.Models {
		avail[m.ID] = m
	}
	if !avail["cli:claude:agent"].Available || avail["cli:claude"].Available || avail["cli:codex:agent"].Available {
		t.Errorf("options = %+v", g.Models)
	}
	if !strings.Contains(avail["cli:codex:agent"].Reason, "not installed") {
		t.Errorf("codex reason = %q", avail["cli:codex:agent"].Reason)
	}
	_, err = r.svc.Roles().SetEnabled(ctx, "claude", false)
	must(t, err)
	groups, _ = r.svc.Roles().ModelGroups(ctx, "Titling")
	for _, m := range groups[0].Models {
		if m.Available || (strings.HasPrefix(m.ID, "cli:claude") && !strings.Contains(m.Reason, "turned off")) {
			t.Errorf("after turning Claude off: %+v", m)
		}
	}
}

func TestLocalFolders(t *testing.T) {
	r := newRig(t, "ok", "done")
	ctx := context.Background()
	if _, err := r.svc.Roles().CurrentFolder(ctx); !errors.Is(err, roles.ErrNoFolders) {
		t.Fatalf("no folders: %v", err)
	}
	a, b := filepath.Join(r.dir, "a"), filepath.Join(r.dir, "b")
	must(t, os.Mkdir(a, 0o755))
	must(t, os.Mkdir(b, 0o755))
	_, err := r.svc.Roles().AddFolder(ctx, a)
	must(t, err)
	_, err = r.svc.Roles().AddFolder(ctx, b)
	must(t, err)
	if cur, _ := r.svc.Roles().CurrentFolder(ctx); cur != b {
		t.Errorf("current = %s, want the most recently added %s", cur, b)
	}
	_, err = r.svc.Roles().AddFolder(ctx, a) // added again: most recent again
	must(t, err)
	fs, _ := r.svc.Roles().Folders(ctx)
	if len(fs) != 2 || fs[0].Path != a || !fs[0].Current || fs[1].Current {
		t.Errorf("folders = %+v", fs)
	}
	if _, err := r.svc.Roles().AddFolder(ctx, filepath.Join(r.dir, "nope")); err == nil {
		t.Error("a missing folder was added")
	}
	must(t, os.Remove(a))
	fs, _ = r.svc.Roles().Folders(ctx)
	if !fs[0].Missing {
		t.Errorf("removed folder not marked missing: %+v", fs[0])
	}
}

func TestAgents(t *testing.T) {
	r := newRig(t, "ok", "All done.")
	ctx := context.Background()
	if _, err := r.svc.Roles().SaveAgent(ctx, roles.Agent{Name: "Bot", ModelPreference: "cli:claude", RuntimeRole: "Worker"}); !errors.Is(err, agentcli.ErrChatNeedsTools) {
		t.Errorf("chat model on a Worker agent: %v", err)
	}
	a, err := r.svc.Roles().SaveAgent(ctx, roles.Agent{Name: "Titler", ModelPreference: "cli:claude", RuntimeRole: "titling"})
	must(t, err)
	if a.RuntimeRole != "Titling" || a.ID == "" {
		t.Fatalf("agent = %+v", a)
	}
	a.Name, a.RuntimeRole, a.ModelPreference = "Builder", "Worker", "cli:claude:agent"
	a, err = r.svc.Roles().SaveAgent(ctx, a)
	must(t, err)
	_, err = r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	run, err := r.svc.Pipeline().RunAgent(ctx, a.ID, "build it", false)
	must(t, err)
	if c := r.card(t, run.ID); c.Kind != board.KindAgent || c.Title != "Builder" {
		t.Errorf("agent card = %+v", c)
	}
	r.svc.Wait(run.ID)
	c := r.card(t, run.ID)
	if c.State != runs.StateDone || c.Why != "All done." {
		t.Errorf("finished agent card = %+v", c)
	}
	got, _ := r.svc.GetRun(ctx, run.ID)
	if got.CostUSD != 0 || got.Usage.OutputTokens != 2 || got.Text != "All done." {
		t.Errorf("run = %+v", got)
	}
	must(t, r.svc.Roles().DeleteAgent(ctx, a.ID))
	if as, _ := r.svc.Roles().Agents(ctx); len(as) != 0 {
		t.Errorf("agents after delete = %+v", as)
	}
}

func chatWithWorker(t *testing.T, r *rig) Chat {
	t.Helper()
	ctx := context.Background()
	_, err := r.svc.Roles().SetRoleModel(ctx, "Worker", "cli:claude:agent")
	must(t, err)
	_, err = r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	c, err := r.svc.CreateChat(ctx, NewChat{Title: "Fix the build"})
	must(t, err)
	return c
}

func TestChatRun(t *testing.T) {
	r := newRig(t, "ok", "Fixed it. Should I also update the docs?")
	ctx := context.Background()
	c := chatWithWorker(t, r)
	if s := r.card(t, c.ID).State; s != runs.StateIdle {
		t.Errorf("new chat state %s", s)
	}
	changes := 0
	stop := r.svc.OnChange(func() { changes++ })
	defer stop()
	hold := filepath.Join(r.dir, "hold") // the run answers only once it is removed
	must(t, os.WriteFile(hold, nil, 0o600))
	run, err := r.svc.Send(ctx, c.ID, `fix "it" --now`)
	must(t, err)
	if run.State != runs.StateRunning || run.Folder != r.folder || run.Role != "Worker" {
		t.Errorf("run = %+v", run)
	}
	if _, err := r.svc.Send(ctx, c.ID, "again"); err == nil {
		t.Error("a second task started while one runs")
	}
	must(t, os.Remove(hold))
	r.svc.Wait(run.ID)
	if p := r.ev.progress(run.ID); !slices.Contains(p, `Using memory_search — {"query":"plan"}`) {
		t.Errorf("progress events = %q", p)
	}
	d, err := r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if n := len(d.Messages); n != 2 || d.Messages[1].Role != "assistant" || d.Messages[1].RunID != run.ID {
		t.Fatalf("messages = %+v", d.Messages)
	}
	if d.Chat.State != runs.StateNeedsYou || r.card(t, c.ID).State != runs.StateNeedsYou {
		t.Errorf("a chat ending on a question is %s, want needs_you", d.Chat.State)
	}
	if d.Chat.CLISession != "sess-1" || d.Runs[0].CostUSD != 0 {
		t.Errorf("session %q cost %v", d.Chat.CLISession, d.Runs[0].CostUSD)
	}
	argv := r.lastArgv(t)
	if argv[1] != "User: fix \"it\" --now" || !slices.Contains(argv, "--strict-mcp-config") {
		t.Errorf("first run argv = %q", argv)
	}
	if changes == 0 {
		t.Error("no change callback")
	}
	// The answer: the next task continues the CLI session.
	run2, err := r.svc.Send(ctx, c.ID, "yes please")
	must(t, err)
	r.svc.Wait(run2.ID)
	argv = r.lastArgv(t)
	if i := slices.Index(argv, "--resume"); i < 0 || argv[i+1] != "sess-1" || argv[1] != "User: yes please" {
		t.Errorf("second run argv = %q", argv)
	}
	must(t, r.svc.EndChat(ctx, c.ID))
	if s := r.card(t, c.ID).State; s != runs.StateDone {
		t.Errorf("ended chat %s", s)
	}
	if _, err := r.svc.Send(ctx, c.ID, "more"); err == nil {
		t.Error("an ended chat took a task")
	}
}

func TestChatRunFails(t *testing.T) {
	r := newRig(t, "fail", "")
	c := chatWithWorker(t, r)
	run, err := r.svc.Send(context.Background(), c.ID, "do it")
	must(t, err)
	r.svc.Wait(run.ID)
	d, _ := r.svc.GetChat(context.Background(), c.ID)
	last := d.Messages[len(d.Messages)-1]
	if last.Role != "error" || !strings.Contains(last.Text, "the model is overloaded") || d.Chat.State != runs.StateFailed {
		t.Errorf("last message %+v, state %s", last, d.Chat.State)
	}
	if d.Runs[0].State != runs.StateFailed {
		t.Errorf("run state %s", d.Runs[0].State)
	}
}

func TestRunNeedsApprovalAndCancel(t *testing.T) {
	r := newRig(t, "hang", "")
	var runID string
	r.svc.o.Pending = func() []tools.ApprovalRequest {
		return []tools.ApprovalRequest{{ID: "a1", Tool: "runtime_send", Source: "bridge:" + runID}}
	}
	c := chatWithWorker(t, r)
	run, err := r.svc.Send(context.Background(), c.ID, "wait")
	must(t, err)
	runID = run.ID
	if s := r.card(t, c.ID).State; s != runs.StateNeedsYou {
		t.Errorf("a run waiting for approval shows %s", s)
	}
	if err := r.svc.EndChat(context.Background(), c.ID); err == nil || err.Error() != "This session is still running. Pause it first, then end it." {
		t.Errorf("ending a running chat: %v", err)
	}
	runID = "other"
	if s := r.card(t, c.ID).State; s != runs.StateRunning {
		t.Errorf("running chat shows %s", s)
	}
	must(t, r.svc.Cancel(run.ID))
	got, _ := r.svc.GetRun(context.Background(), run.ID)
	if got.State != runs.StateFailed || !strings.Contains(got.Error, "cancelled") {
		t.Errorf("cancelled run = %+v", got)
	}
}

func TestRefusalsBeforeRunning(t *testing.T) {
	r := newRig(t, "ok", "x")
	ctx := context.Background()
	c, err := r.svc.CreateChat(ctx, NewChat{})
	must(t, err)
	// The Worker plays on the installed Claude Code by default; with it
	// turned off there is no model.
	_, err = r.svc.Roles().SetEnabled(ctx, "claude", false)
	must(t, err)
	if _, err := r.svc.Send(ctx, c.ID, "x"); !errors.Is(err, roles.ErrNoModel) {
		t.Errorf("no Worker model: %v", err)
	}
	_, err = r.svc.Roles().SetEnabled(ctx, "claude", true)
	must(t, err)
	if _, err := r.svc.Send(ctx, c.ID, "x"); !errors.Is(err, roles.ErrNoFolders) {
		t.Errorf("no folder: %v", err)
	}
	if _, err := r.svc.ContinueHere(ctx, "claude", "$(rm -rf ~)", r.folder, ""); err == nil {
		t.Error("a hostile session id was accepted")
	}
	if _, err := r.svc.ContinueHere(ctx, "gemini", "abc", r.folder, ""); err == nil {
		t.Error("an unknown CLI was accepted")
	}
}

func TestContinueHere(t *testing.T) {
	r := newRig(t, "ok", "Continuing.")
	ctx := context.Background()
	_, err := r.svc.Roles().SetRoleModel(ctx, "Worker", "cli:codex:agent") // the role's model is another CLI
	must(t, err)
	c, err := r.svc.ContinueHere(ctx, "claude", "0d5b7c1e-1111-2222-3333-444455556666", r.folder, "")
	must(t, err)
	run, err := r.svc.Send(ctx, c.ID, "keep going")
	must(t, err)
	r.svc.Wait(run.ID)
	argv := r.lastArgv(t)
	if i := slices.Index(argv, "--resume"); i < 0 || argv[i+1] != "0d5b7c1e-1111-2222-3333-444455556666" || argv[i+2] != "--fork-session" {
		t.Errorf("argv = %q, want the user's session forked", argv)
	}
	if run.Model != "cli:claude:agent" {
		t.Errorf("model = %s", run.Model)
	}
}

func TestInterruptedRunsClosedOnStart(t *testing.T) {
	r := newRig(t, "ok", "x")
	_, err := r.svc.db.Exec(`INSERT INTO pipeline_runs(id, model, role, state, started_at) VALUES('old','cli:claude:agent','Worker','running',1)`)
	must(t, err)
	s2, err := New(context.Background(), Options{DB: r.svc.db, Runner: r.svc.run})
	must(t, err)
	got, _ := s2.GetRun(context.Background(), "old")
	if got.State != runs.StateFailed || got.Error == "" {
		t.Errorf("interrupted run = %+v", got)
	}
}

func TestIsQuestion(t *testing.T) {
	for text, want := range map[string]bool{
		"Done.": false, "Shall I push it?": true, "Which one?\n\n": true, "Is it ok?\nDone.": false,
		"**Should I continue?**": true, "": false, "Listo？": true,
	} {
		if IsQuestion(text) != want {
			t.Errorf("IsQuestion(%q) != %v", text, want)
		}
	}
}
