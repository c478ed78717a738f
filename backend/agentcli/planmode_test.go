package agentcli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
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

// A plan-mode Codex run changes nothing: the real Codex, scripted to run a
// command and add a file, runs in its read-only sandbox without the bridge
// (Codex calls MCP tools only with its sandbox bypassed), in a worktree
// and outside one, and says so.
func TestLiveCodexPlanModeChangesNothing(t *testing.T) {
	for _, worktree := range []bool{false, true} {
		t.Run(fmt.Sprintf("worktree=%v", worktree), func(t *testing.T) {
			srv, e, rig, r, c := codexWorkerRig(t, false)
			acc := rig.access()
			acc.PlanMode = true
			res, err := r.Run(context.Background(), Job{
				ID: fmt.Sprintf("codexplan%v", worktree), Model: ModelCodexAgent, Role: "Worker", NeedsTools: true,
				SystemPrompt: "You are the Worker.", Turns: []Turn{{Role: "user", Text: "print the marker, add notes.txt"}},
				Folder: e.Work, Worktree: worktree, Tools: acc, OnEvent: c.on, Tap: c.tap,
			})
			if err != nil {
				t.Fatalf("run: %v\nprogress: %q\nstderr: %s", err, res.Progress, res.StderrTail)
			}
			p := c.progress()
			if !slices.Contains(p, CodexPlanModeNote) {
				t.Errorf("progress = %q, want the plan-mode note", p)
			}
			if hasPrefixLine(p, "osFoundry tools are off for this run") {
				t.Errorf("the worktree note was shown as well: %q", p)
			}
			if _, err := os.Stat(filepath.Join(e.Work, "notes.txt")); err == nil {
				t.Error("a plan-mode run wrote notes.txt into the user's folder")
			}
			if res.Diff != "" {
				t.Errorf("a plan-mode run changed files: %s", res.Diff)
			}
			main := srv.MainRequests()
			if len(main) == 0 || main[0].HasTool(fakemodel.MCPName("osfoundry", "memory_search")) || len(rig.audit.Entries()) != 0 {
				t.Error("a plan-mode Codex run was offered the bridge")
			}
		})
	}
}
