package agentcli

import (
	"slices"
	"testing"
)

// In plan mode Claude Code is not offered its own tools that change
// things (the app's tools are refused by the executor behind the bridge):
// it reads and plans. Outside plan mode nothing is taken away.
func TestClaudePlanModeDeniesItsWritingTools(t *testing.T) {
	argv, err := BuildClaude("claude", ClaudeArgs{Prompt: "User: plan it", Folder: "/w", PlanMode: true})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.Index(argv, "--disallowedTools")
	if i < 0 || argv[i+1] != "Bash,Edit,Write,MultiEdit,NotebookEdit" {
		t.Fatalf("plan-mode argv = %q; want --disallowedTools Bash,Edit,Write,MultiEdit,NotebookEdit", argv)
	}
	argv, err = BuildClaude("claude", ClaudeArgs{Prompt: "User: do it", Folder: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(argv, "--disallowedTools") {
		t.Fatalf("argv outside plan mode = %q", argv)
	}
}
