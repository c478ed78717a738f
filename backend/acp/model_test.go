package acp

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// modelAgent offers three models in session/new, as claude-agent-acp
// does, takes session/set_model and answers each prompt with the model it
// runs on.
type modelAgent struct {
	fakeAgent
	current sdk.ModelId
}

var offered = []sdk.ModelInfo{
	{ModelId: "default", Name: "Default (recommended)"},
	{ModelId: "opus", Name: "Opus"},
	{ModelId: "claude-haiku-4-5", Name: "Haiku"},
}

func (a *modelAgent) NewSession(context.Context, sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	return sdk.NewSessionResponse{SessionId: "s1", Models: &sdk.SessionModelState{AvailableModels: offered, CurrentModelId: a.current}}, nil
}

func (a *modelAgent) UnstableSetSessionModel(_ context.Context, p sdk.UnstableSetSessionModelRequest) (sdk.UnstableSetSessionModelResponse, error) {
	a.current = sdk.ModelId(p.ModelId)
	return sdk.UnstableSetSessionModelResponse{}, nil
}

func (a *modelAgent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	_ = a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId, Update: sdk.UpdateAgentMessageText("running on " + string(a.current) + "\n")})
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

func runModelClient(t *testing.T, agent, model string) (typed io.WriteCloser, out *syncBuf, done chan error) {
	t.Helper()
	exe, _ := os.Executable()
	in, typed := io.Pipe()
	out = &syncBuf{}
	done = make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{Argv: []string{exe}, Model: model, Dir: t.TempDir(),
			Env: append(os.Environ(), "OSF_ACP_FAKE_AGENT="+agent), In: in, Out: out})
	}()
	t.Cleanup(func() { typed.Close(); <-done })
	return typed, out, done
}

// The model picked in New pane (osfoundry acp --model) is asked for with
// session/set_model, by id, name or a part naming one model; the next
// turn runs on it, and /model lists and switches.
func TestModelPickedByNameRunsTheTurn(t *testing.T) {
	typed, out, _ := runModelClient(t, "models", "haiku")
	waitFor(t, out, "Model: claude-haiku-4-5 (Haiku).")
	io.WriteString(typed, "which model?\n")
	waitFor(t, out, "running on claude-haiku-4-5")
	// /model waits for the turn's end: during a turn the pane says the agent
	// is still working, and the text above comes before the turn ends.
	waitFor(t, out, "[turn ended: end_turn]")
	io.WriteString(typed, "/model\n")
	waitFor(t, out, "* claude-haiku-4-5 (Haiku)")
	if !strings.Contains(out.String(), "  opus (Opus)") {
		t.Fatalf("the list should show every offered model:\n%s", out.String())
	}
	io.WriteString(typed, "/model Opus\n")
	waitFor(t, out, "Model: opus (Opus).")
	io.WriteString(typed, "and now?\n")
	waitFor(t, out, "running on opus")
}

// A model the agent does not offer, or a part naming several, changes
// nothing and says what it offers; an agent offering no choice says so.
func TestModelNotOfferedIsSaidAndChangesNothing(t *testing.T) {
	typed, out, _ := runModelClient(t, "models", "gpt-5")
	waitFor(t, out, `Model not changed: the agent offers no model "gpt-5". It offers: default, opus, claude-haiku-4-5.`)
	io.WriteString(typed, "/model o\n")
	waitFor(t, out, `"o" names 2 of the agent's models (default, opus): name one of them`)
	io.WriteString(typed, "hello\n")
	waitFor(t, out, "running on default")

	_, plain, _ := runModelClient(t, "1", "haiku")
	waitFor(t, plain, `does not offer a model choice over ACP, so "haiku" was not applied`)
}
