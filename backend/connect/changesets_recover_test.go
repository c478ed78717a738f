package connect

import (
	"context"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/changeset"
)

// The app can die after an approval committed the change set and before it
// recorded the proposal as applied. The card must then still wait (it was
// not recorded as applied), and approving it again must record the commit
// that was made, not fail on "branch already exists" nor commit it twice.
func TestChangeSetCommittedButNotRecordedAppliesOnce(t *testing.T) {
	e, token, repo := changeSetEnv(t)
	panel := NewPanel(bg, e.svc, e.srv)
	args := map[string]any{"project_id": "proj-a", "title": "Say three",
		"files": []map[string]string{{"path": "app.txt", "content": "one\ntwo\nthree\n"}}}
	if _, got := e.callTool(token, "propose_change_set", args); got != "OK" {
		t.Fatalf("propose: %s", got)
	}
	ps, err := panel.NeedsApproval()
	if err != nil || len(ps) != 1 {
		t.Fatalf("needs approval: %+v %v", ps, err)
	}
	p := ps[0]
	// What the approval did before the process died: the commit and branch.
	made, err := changeset.Apply(context.Background(), repo, p.ID, p.Title, changeset.Change{Files: []changeset.File{{Path: "app.txt", Content: "one\ntwo\nthree\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	if cur, err := e.svc.Proposal(bg, p.ID); err != nil || cur.Status != "pending" || cur.Branch != "" {
		t.Fatalf("after the restart the card shows %+v (%v), want it still waiting", cur, err)
	}
	p, err = panel.Approve(p.ID)
	if err != nil || p.Status != "approved" || p.Problem != "" {
		t.Fatalf("approving again: %+v %v", p, err)
	}
	if p.Branch != made.Branch || p.Commit != made.Commit || !strings.Contains(p.Diff, "+three") {
		t.Fatalf("approving again recorded branch %q commit %q, want %q %q", p.Branch, p.Commit, made.Branch, made.Commit)
	}
	if n := gitIn(t, repo, "rev-list", "--count", "main.."+p.Branch); n != "1" {
		t.Fatalf("the branch has %s commits on main, want the one", n)
	}
}
