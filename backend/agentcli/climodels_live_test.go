package agentcli

import (
	"context"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// requestModel is the "model" of the first main request the CLI sent.
func requestModel(t *testing.T, srv *fakemodel.Server) string {
	t.Helper()
	main := srv.MainRequests()
	if len(main) == 0 {
		t.Fatal("the CLI sent no request to the model")
	}
	m, _ := main[0].JSON()["model"].(string)
	return m
}

// The model picked for a run reaches the real CLI's argv and, from there,
// the request the CLI sends to the model API.
func TestLiveClaudeRunsThePickedModel(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("Picked."))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	const want = "claude-opus-5-5"
	res, err := runnerFor(t, e).Run(context.Background(), Job{Model: WithCLIModel(ModelClaudeAgent, want),
		Turns: []Turn{{Role: "user", Text: "say picked"}}, Folder: e.Work})
	if err != nil || res.Text != "Picked." {
		t.Fatalf("run: %v %+v\nstderr %s", err, res, res.StderrTail)
	}
	if got := requestModel(t, srv); got != want {
		t.Fatalf("Claude Code asked the model API for %q, want %q", got, want)
	}
}

func TestLiveCodexRunsThePickedModel(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("Picked."))
	e := agentenv.Codex(t, srv.URL)
	r := runnerFor(t, e)
	r.o.CodexConfig = codexFakeConfig(srv.URL)
	const want = "gpt-5.6-luna"
	res, err := r.Run(context.Background(), Job{Model: WithCLIModel(ModelCodexAgent, want),
		Turns: []Turn{{Role: "user", Text: "say picked"}}, Folder: e.Work})
	if err != nil || res.Text != "Picked." {
		t.Fatalf("run: %v %+v\nstderr %s", err, res, res.StderrTail)
	}
	if got := requestModel(t, srv); got != want {
		t.Fatalf("Codex asked the model API for %q, want %q", got, want)
	}
}

// A model the API refuses ends the run with a message that names the model
// and says what to do.
func TestLiveRefusedModelSaysSo(t *testing.T) {
	for _, agent := range []Agent{Claude, Codex} {
		t.Run(string(agent), func(t *testing.T) {
			srv := fakemodel.Start(t)
			const bad = "no-such-model-7"
			srv.Refuse = []string{bad}
			var e *agentenv.Env
			mode := ModelClaudeAgent
			if agent == Codex {
				e, mode = agentenv.Codex(t, srv.URL), ModelCodexAgent
			} else {
				e = agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
			}
			r := runnerFor(t, e)
			r.o.CodexConfig = codexFakeConfig(srv.URL)
			res, err := r.Run(context.Background(), Job{Model: WithCLIModel(mode, bad),
				Turns: []Turn{{Role: "user", Text: "hello"}}, Folder: e.Work})
			if err == nil {
				t.Fatalf("the run with a refused model succeeded: %+v", res)
			}
			msg := err.Error()
			if !strings.Contains(msg, agent.Title()+" refused the model "+`"`+bad+`"`) || !strings.Contains(msg, "pick another model") {
				t.Fatalf("error %q does not say the model was refused and what to do", msg)
			}
		})
	}
}
