package inventory

import (
	"context"
	"testing"
)

// "Continue here" shows the earlier conversation above the continued
// chat: only what the user typed and the answers, oldest first, the newest
// max of them.
func TestConversationOfRealStores(t *testing.T) {
	for _, name := range []string{"codex-0.169.0", "claude-headless-2.1.328.tools"} {
		t.Run(name, func(t *testing.T) {
			_, svc, s, unchanged := indexRealStore(t, name)
			all, err := svc.Conversation(context.Background(), s.ID, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(all) < 2 || all[0].Kind != RowUser {
				t.Fatalf("conversation %+v: want the user's first prompt first", all)
			}
			for _, r := range all {
				if r.Kind != RowUser && r.Kind != RowAssistant || r.Text == "" {
					t.Fatalf("row %+v: only typed prompts and answers", r)
				}
			}
			last, err := svc.Conversation(context.Background(), s.ID, 1)
			if err != nil || len(last) != 1 || last[0] != all[len(all)-1] {
				t.Fatalf("newest 1 = %+v (%v), want %+v", last, err, all[len(all)-1])
			}
			unchanged()
		})
	}
}
