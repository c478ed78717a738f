package board

import (
	"strings"
	"testing"
)

// A chat card's line is the answer's prose, never the tail of a code block
// or JSON it ended with.
func TestChatPreviewIsProse(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"plain", "The marker is e2e-42.", "The marker is e2e-42."},
		{"last prose line", "Done.\n\nI updated **two** files and ran the tests.", "I updated two files and ran the tests."},
		{"fenced json at the end", "Here is the config I wrote:\n\n```json\n{\n  \"port\": 8080\n}\n```", "Here is the config I wrote:"},
		{"bare json at the end", "The settings now read:\n{\n  \"retries\": 3,\n  \"timeout\": 30\n}", "The settings now read:"},
		{"unclosed fence", "Try this:\n```sh\nmake test\n", "Try this:"},
		{"list item", "Changes:\n- renamed `Checkout` to `Pay`", "renamed Checkout to Pay"},
		{"heading and code only", "## Result\n```\n}\n```", "Result"},
		{"only code", "```\n}\n```", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProsePreview(tt.text); got != tt.want {
				t.Errorf("prosePreview = %q, want %q", got, tt.want)
			}
		})
	}
}

// A run's summary ends with its last message under that name, and a run
// that said nothing has no empty block.
func TestRunSummaryEndsWithItsLastMessage(t *testing.T) {
	s := Summary{Title: "Slow helper", Kind: KindAgent, LastScreen: LastLines("")}
	if md := s.Markdown(); strings.Contains(md, "## Last") {
		t.Errorf("an empty last message still gets a block:\n%s", md)
	}
	s.LastScreen = LastLines("Wrote the notes.\n")
	if md := s.Markdown(); !strings.Contains(md, "## Last message\n") || strings.Contains(md, "## Last screen") {
		t.Errorf("a run's last message:\n%s", md)
	}
}
