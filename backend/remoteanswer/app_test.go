package remoteanswer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/teamsessions"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
	"github.com/osfoundry/desktop/backend/tools"
)

// TestAppSessionsAnsweredFromThePage: the app's own sessions on the page.
// A chat (the real chat service running the real Claude Code against the
// fake model) asks, through the bridge, to use a tool that needs approval,
// then ends its answer with a question; an agent run's bridge asks
// the app's approval queue to let it use Bash. Both show on the Needs you
// page with their choices (a reply; Approve and Decline), and answers from
// the page (Go HTTP and Chromium at 390×844) reach them through the same
// claimed-once path as a pane's: a reply is the chat's next message to
// the agent, Approve lets the tool call run, an approval answered at the
// desk first is left alone; a Team's run that asks is approved the same
// way; every answer is in the audit with its browser.
func TestAppSessionsAnsweredFromThePage(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	srv.Push(fakemodel.ClaudeToolSearch(fakemodel.MCPName("osfoundry", "schema_read")),
		fakemodel.ClaudeMCP("osfoundry", "schema_read", map[string]any{"table": "orders"}),
		fakemodel.Text("I read the schema. Which database should I use?"), fakemodel.Text("Postgres it is. Shall I migrate the tables now?"),
		fakemodel.Text("Migrated."),
		// A Team's run, started after the chat: it asks to use schema_read too.
		fakemodel.ClaudeToolSearch(fakemodel.MCPName("osfoundry", "schema_read")),
		fakemodel.ClaudeMCP("osfoundry", "schema_read", map[string]any{"table": "invoices"}),
		fakemodel.Text("Checked the invoices table."))
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	base := tm.LB.URL
	d := newDesk(t, tm)

	// The app's chats and approval queue, as the app wires them.
	var emit func()
	// The queue tells the board when it changes, as the app's does.
	q := tools.NewApprovalQueue(func(tools.ApprovalRequest) { go emit() }, func(string) { go emit() })
	db, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	must(t, err)
	defer db.Close()
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: e.Home, Environ: e.Env, Path: strings.TrimPrefix(e.Env[0], "PATH=")}})
	// A tool of the app that asks the person first, offered to the chat's
	// runs through the bridge, as the app's executor does.
	var schemaRead atomic.Int32
	exec := tools.NewExecutor(tools.Options{Approver: q, Auditor: &tools.MemoryAuditor{}})
	must(t, exec.Register(tools.Tool{Meta: tools.Meta{Name: "schema_read", Description: "Reads a table's schema.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"table":{"type":"string"}}}`), ReadOnly: true, Scope: tools.ScopeRead, NeedsApproval: true},
		Handler: func(context.Context, tools.Call) (tools.Result, error) {
			schemaRead.Add(1)
			return tools.Result{Text: "orders(id, total)"}, nil
		}}))
	chats, err := chat.New(bg, chat.Options{DB: db, Runner: runner, Pending: q.Pending,
		Tools: func(string, roles.Role) *agentcli.ToolAccess {
			return &agentcli.ToolAccess{Executor: exec, Workspace: "ws-1", User: "alice", Channel: "chat", Allow: append(slices.Clone(roles.DefaultTools), "schema_read"), Watched: true}
		}})
	must(t, err)
	defer chats.Close()
	_, err = chats.Roles().SetRoleModel(bg, "Worker", agentcli.ModelClaudeAgent)
	must(t, err)
	_, err = chats.Roles().AddFolder(bg, e.Work)
	must(t, err)
	jobs, err := orchestrate.Open(bg, chats.Pipeline(), chats.Runs(), db)
	must(t, err)
	defer jobs.Close()
	teams := orchestrate.NewBoardSource(jobs, chats.RunStates)
	app, err := NewApp(q, chats, d.audit)
	must(t, err)
	d.share.SetAppAnswerer(app.WithJobs(jobs))
	ctx, stop := context.WithCancel(bg)
	defer stop()
	go d.share.Run(ctx)
	must2(d.share.SetSharing(bg, true))
	must2(d.share.SetAnswers(bg, true))

	// The board, as the app emits it: the chats' cards and an agent run,
	// which needs the person while its bridge waits on an approval (as
	// the chat service's own agent-run cards do).
	var bmu sync.Mutex
	agent := board.Card{Key: "agent/run-billing", Kind: board.KindAgent, ID: "run-billing", Title: "Refactor billing", Folder: "shop-api",
		Dir: "/home/alice/SECRET-client", State: board.Running, UpdatedAt: time.Now().UnixMilli(), Why: "Using Bash — SECRET rm -rf build"}
	emit = func() {
		bmu.Lock()
		defer bmu.Unlock()
		agent.State = board.Running
		for _, r := range q.Pending() {
			if r.Source == "bridge:run-billing" {
				agent.State = board.NeedsYou
			}
		}
		cards := append(append(chat.NewBoardSource(chats, teams.ChildRuns).Cards(), teams.Cards()...), agent)
		for i := range cards {
			if cards[i].Key == "" {
				cards[i].Key = cards[i].Kind + "/" + cards[i].ID
			}
		}
		d.share.Tee(nopEmit{}).Emit(board.EventChanged, cards)
	}
	chats.OnChange(func() { go emit() })
	jobs.OnChange(func() { go emit() })

	c, err := chats.CreateChat(bg, chat.NewChat{Title: "Schema"})
	must(t, err)
	run, err := chats.Send(bg, c.ID, "read the schema")
	must(t, err)

	var sh teamsessions.Shared
	find := func(kind string) (teamsessions.Device, teamsessions.Session, bool) {
		for _, dv := range sh.Devices {
			for _, s := range dv.Sessions {
				if s.Kind == kind && s.State == teamsessions.NeedsYou && s.Asks != "" {
					return dv, s, true
				}
			}
		}
		return teamsessions.Device{}, teamsessions.Session{}, false
	}
	answer := func(in teamsessions.AnswerRequest) (teamsessions.Answer, error) {
		var a teamsessions.Answer
		err := tm.Owner.API("POST", base+"/api/sessions/answers", in, &a)
		return a, err
	}
	result := func(a teamsessions.Answer) string {
		var st teamsessions.Answer
		waitFor(t, "the answer's result", func() bool {
			return tm.Owner.API("GET", base+"/api/sessions/answers/"+a.ID, nil, &st) == nil && st.State != "pending" && st.State != "claimed"
		})
		return st.State
	}
	// The chat's run asks to use schema_read: approved from the page, it runs.
	waitFor(t, "the chat's approval on the page", func() bool {
		sh = teamsessions.Shared{}
		_ = tm.Owner.API("GET", base+"/api/sessions", nil, &sh)
		_, s, ok := find("chat")
		return ok && s.Asks == teamsessions.AsksApproval
	})
	dev, cs, _ := find("chat")
	if cs.Line != "Asks to use schema_read" || len(q.Pending()) != 1 || cs.Since != q.Pending()[0].At {
		t.Fatalf("the chat's approval on the page: %+v, pending %+v", cs, q.Pending())
	}
	a, err := answer(teamsessions.AnswerRequest{Device: dev.ID, Session: cs.ID, Since: cs.Since, Answer: "approve"})
	must(t, err)
	if st := result(a); st != teamsessions.StateAnswered {
		t.Fatalf("approving the chat's tool call: %s", st)
	}
	chats.Wait(run.ID)
	if schemaRead.Load() != 1 {
		t.Fatalf("schema_read ran %d times after its approval", schemaRead.Load())
	}
	decided := make(chan tools.ApprovalDecision, 2)
	ask := func() {
		go func() {
			dd, err := q.RequestApproval(ctx, tools.ApprovalRequest{Tool: "Bash", Args: json.RawMessage(`{"command":"SECRET rm -rf build"}`),
				Source: "bridge:run-billing", At: time.Now().UnixMilli()})
			if err == nil {
				decided <- dd
			}
		}()
		waitFor(t, "the approval request", func() bool { return len(q.Pending()) == 1 })
	}
	ask()

	waitFor(t, "the chat and the agent run on the page", func() bool {
		sh = teamsessions.Shared{}
		_ = tm.Owner.API("GET", base+"/api/sessions", nil, &sh)
		_, _, okc := find("chat")
		_, _, oka := find("agent")
		return okc && oka
	})
	_, cs, _ = find("chat")
	_, as, _ := find("agent")
	if cs.Asks != teamsessions.AsksReply || cs.Line != "I read the schema. Which database should I use?" || cs.Choices != 0 {
		t.Fatalf("the chat on the page: %+v", cs)
	}
	if as.Asks != teamsessions.AsksApproval || as.Line != "Asks to use Bash" || as.Since != q.Pending()[0].At {
		t.Fatalf("the agent run on the page: %+v", as)
	}
	body := page(t, tm.Owner, base)
	for _, want := range []string{"Which database should I use?", "Asks to use Bash", `data-answer="approve"`, `aria-label="Reply"`} {
		if !strings.Contains(body, want) {
			t.Fatalf("the page lacks %q", want)
		}
	}
	// Wrong kinds of answers are refused with what to do.
	if _, err := answer(teamsessions.AnswerRequest{Device: dev.ID, Session: cs.ID, Since: cs.Since, Answer: "approve"}); err == nil || !strings.Contains(err.Error(), "answer with a text reply") {
		t.Fatalf("approving a chat's question: %v", err)
	}
	if _, err := answer(teamsessions.AnswerRequest{Device: dev.ID, Session: as.ID, Since: as.Since, Answer: "text", Text: "ok"}); err == nil || !strings.Contains(err.Error(), "approve or decline") {
		t.Fatalf("replying to an approval: %v", err)
	}
	// The reply reaches the chat as its next message.
	a, err = answer(teamsessions.AnswerRequest{Device: dev.ID, Session: cs.ID, Since: cs.Since, Answer: "text", Text: "use postgres, version 17"})
	must(t, err)
	if st := result(a); st != teamsessions.StateAnswered {
		t.Fatalf("the reply: %s", st)
	}
	if !srv.WaitMain(4, 60*time.Second) || !strings.Contains(string(srv.MainRequests()[3].Body), "use postgres, version 17") {
		t.Fatal("the reply did not reach the agent")
	}
	waitFor(t, "the chat's answer", func() bool {
		dd, err := chats.GetChat(bg, c.ID)
		return err == nil && dd.Messages[len(dd.Messages)-1].Text == "Postgres it is. Shall I migrate the tables now?"
	})

	// Answered at the desk first: the page's Approve decides nothing.
	waitFor(t, "the approval's since", func() bool {
		sh = teamsessions.Shared{}
		_ = tm.Owner.API("GET", base+"/api/sessions", nil, &sh)
		_, s, ok := find("agent")
		return ok && s.Since == as.Since
	})
	must(t, q.Resolve(q.Pending()[0].ID, tools.ApprovalDecision{Approved: false, Reason: "at the desk"}))
	if dd := <-decided; dd.Approved || dd.Reason != "at the desk" {
		t.Fatalf("the desk's decision: %+v", dd)
	}
	// Either the server already heard the desk's decision and refuses the
	// answer, or the desktop finds the approval gone (and audits it):
	// nothing is decided.
	atDesk := 1
	a, err = answer(teamsessions.AnswerRequest{Device: dev.ID, Session: as.ID, Since: as.Since, Answer: "approve"})
	switch {
	case err != nil && strings.Contains(err.Error(), "409") && strings.Contains(err.Error(), "no longer waiting"):
		atDesk = 0
	case err != nil:
		t.Fatal(err)
	default:
		if st := result(a); st != teamsessions.StateGone {
			t.Fatalf("an approval answered at the desk first: %s", st)
		}
	}

	// A new approval, approved on a phone in Chromium.
	ask()
	waitFor(t, "the new approval on the page", func() bool {
		sh = teamsessions.Shared{}
		_ = tm.Owner.API("GET", base+"/api/sessions", nil, &sh)
		_, s, ok := find("agent")
		return ok && s.Since == q.Pending()[0].At
	})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /decided", func(w http.ResponseWriter, r *http.Request) {
		select {
		case dd := <-decided:
			_ = json.NewEncoder(w).Encode(dd)
		case <-time.After(10 * time.Second):
			_ = json.NewEncoder(w).Encode(map[string]any{})
		}
	})
	mux.HandleFunc("GET /replied", func(w http.ResponseWriter, r *http.Request) {
		ok := srv.WaitMain(5, 60*time.Second) && strings.Contains(string(srv.MainRequests()[4].Body), "yes, migrate them")
		_ = json.NewEncoder(w).Encode(map[string]bool{"ok": ok})
	})
	control := httptest.NewServer(mux)
	defer control.Close()
	runNode(t, "needs-you-apps.mjs", tm, "CONTROL="+control.URL)

	// A Team whose run asks to use schema_read: approved from the page.
	job, err := jobs.StartFleet(bg, "", orchestrate.Fleet{Title: "Nightly checks", Tasks: []orchestrate.FleetTask{{Role: "Worker", Task: "check the invoices table"}}},
		runs.Origin{}, nil)
	must(t, err)
	waitFor(t, "the Team's approval on the page", func() bool {
		sh = teamsessions.Shared{}
		_ = tm.Owner.API("GET", base+"/api/sessions", nil, &sh)
		_, s, ok := find("team")
		return ok && s.Asks == teamsessions.AsksApproval
	})
	_, ts, _ := find("team")
	if ts.Title != "Nightly checks" || ts.Line != "Asks to use schema_read" {
		t.Fatalf("the Team on the page: %+v", ts)
	}
	a, err = answer(teamsessions.AnswerRequest{Device: dev.ID, Session: ts.ID, Since: ts.Since, Answer: "approve"})
	must(t, err)
	if st := result(a); st != teamsessions.StateAnswered {
		t.Fatalf("approving the Team's tool call: %s", st)
	}
	if st, err := jobs.Wait(bg, "", job.ID); err != nil || st.State != orchestrate.StateDone || schemaRead.Load() != 2 {
		t.Fatalf("the Team after its approval: %+v %v, schema_read ran %d times", st, err, schemaRead.Load())
	}

	// The audit: each answer, with the browser it came from.
	var replies, approvals int
	for _, en := range d.audit.Entries() {
		switch {
		case en.Tool == "chat_reply" && en.Detail == "sent the reply to the chat" && strings.Contains(en.Source, "Go-http-client"),
			en.Tool == "chat_reply" && en.Detail == "sent the reply to the chat" && strings.Contains(en.Source, "osf-e2e-apps"):
			replies++
		case en.Tool == "approval_answer" && strings.Contains(en.Detail, "answered at the desk") && strings.Contains(en.Source, "Go-http-client"):
			approvals++
		case en.Tool == "approval_answer" && en.Detail == "approved Bash" && strings.Contains(en.Source, "osf-e2e-apps"),
			en.Tool == "approval_answer" && en.Detail == "approved schema_read" && strings.Contains(en.Source, "Go-http-client"):
			// the chat's and the Team's
			approvals++
		}
	}
	if replies != 2 || approvals != 3+atDesk {
		t.Fatalf("the audit: %d replies, %d approvals: %+v", replies, approvals, d.audit.Entries())
	}
	// Nothing of the tool call or the card's path and reason went up.
	d.wire.mu.Lock()
	defer d.wire.mu.Unlock()
	for _, b := range d.wire.bodies {
		if strings.Contains(b, "SECRET") || strings.Contains(b, "/home/") {
			t.Fatalf("the desktop sent %s", b)
		}
	}
}
