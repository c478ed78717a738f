package inventory

import (
	"context"
	"strings"
	"testing"
)

// The blocks Codex writes into the conversation for the model — developer
// messages (<permissions instructions>, <skills_instructions>,
// <collaboration_mode>) and user-role context (<environment_context>,
// "# AGENTS.md instructions for …") — are not conversation: the real
// Codex 0.169 rollouts show only what the user typed and the answers, and
// an interrupted turn reads as one short note.
func TestRealCodexHarnessBlocksHidden(t *testing.T) {
	for _, name := range []string{"codex-0.169.0", "codex-inline-0.169.0", "codex-headless-0.169.0.text", "codex-headless-0.169.0.tools"} {
		t.Run(name, func(t *testing.T) {
			_, svc, s, _ := indexRealStore(t, name)
			var rows []Row
			for cur := int64(0); ; {
				p, err := svc.Transcript(context.Background(), s.Key, cur, 500)
				if err != nil {
					t.Fatal(err)
				}
				rows = append(rows, p.Rows...)
				if p.Done {
					break
				}
				cur = p.Next
			}
			users := 0
			for _, r := range rows {
				for _, block := range []string{"<environment_context>", "<skills_instructions>", "<permissions instructions>", "<collaboration_mode>", "# AGENTS.md instructions", "<turn_aborted>"} {
					if strings.Contains(r.Text, block) {
						t.Errorf("a %s row shows the harness block %s: %.80q", r.Kind, block, r.Text)
					}
				}
				if r.Kind == RowUser {
					users++
				}
			}
			if users == 0 {
				t.Fatalf("no user rows in %d rows", len(rows))
			}
		})
	}
}

func TestCodexHarnessRows(t *testing.T) {
	cases := []struct {
		name, line string
		want       []Row
	}{
		{"environment context", `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}}`, nil},
		{"AGENTS.md preamble", `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>be nice</INSTRUCTIONS>"}]}}`, nil},
		{"developer permissions", `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>sandbox</permissions instructions>"}]}}`, nil},
		{"interrupted turn", `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>"}]}}`,
			[]Row{{Kind: RowSystem, Text: "The user interrupted this turn", Time: "t"}}},
		{"typed prompt", `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix the bug"}]}}`,
			[]Row{{Kind: RowUser, Text: "fix the bug", Time: "t"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := codexRows([]byte(c.line))
			if len(got) != len(c.want) {
				t.Fatalf("rows %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i].Kind != c.want[i].Kind || got[i].Text != c.want[i].Text {
					t.Errorf("row %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}
