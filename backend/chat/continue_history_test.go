package chat

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/inventory"
)

type fakeConversations struct {
	rows []inventory.Row
	err  error
	max  int
}

func (f *fakeConversations) Conversation(_ context.Context, _ string, max int) ([]inventory.Row, error) {
	f.max = max
	return f.rows, f.err
}

// "Continue here" shows what the person typed as theirs and everything
// else the session's agent answered as the assistant's, in order.
func TestSessionHistoryKeepsWhoSaidWhat(t *testing.T) {
	c := &fakeConversations{rows: []inventory.Row{
		{Kind: inventory.RowUser, Text: "Tidy the payment logs"},
		{Kind: inventory.RowAssistant, Text: "Done: three files."},
	}}
	turns, err := SessionHistory(c)(context.Background(), "claude", "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := []agentcli.Turn{{Role: "user", Text: "Tidy the payment logs"}, {Role: "assistant", Text: "Done: three files."}}
	if !slices.Equal(turns, want) || c.max != continueHistoryTurns {
		t.Fatalf("turns %+v (asked for %d), want %+v (%d)", turns, c.max, want, continueHistoryTurns)
	}
}

func TestSessionHistoryNamesTheAgentWhenTheFileCannotBeRead(t *testing.T) {
	_, err := SessionHistory(&fakeConversations{err: errors.New("permission denied")})(context.Background(), "codex", "s1")
	if err == nil || !strings.Contains(err.Error(), "codex session") {
		t.Fatalf("err = %v, want it to name the codex session", err)
	}
}
