package review

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestFinishMergesSquashesOrRebasesIntoTheBase(t *testing.T) {
	for _, mode := range []string{ModeMerge, ModeSquash, ModeRebase} {
		t.Run(mode, func(t *testing.T) {
			r := newRig(t)
			wt := r.wt(0)
			write(t, filepath.Join(wt, "feature.txt"), "feature\n")
			git(t, wt, "add", "-A")
			git(t, wt, "commit", "-qm", "add feature")
			write(t, filepath.Join(wt, "more.txt"), "more\n")
			git(t, wt, "add", "-A")
			git(t, wt, "commit", "-qm", "add more")
			// The base moved meanwhile (someone else's work, no conflict).
			write(t, filepath.Join(r.repo, "other.txt"), "other\n")
			git(t, r.repo, "add", "-A")
			git(t, r.repo, "commit", "-qm", "other work")
			// The agent's last edit is not committed.
			write(t, filepath.Join(wt, "app.js"), "one\ntwo\nthree\nfour\nfive\nsix\n")
			plan, err := r.svc.FinishPlan("p1")
			if err != nil || plan.Commits != 2 || len(plan.Uncommitted) != 1 || plan.BaseCheckout != r.repo || plan.Problem != "" {
				t.Fatalf("plan = %+v, %v", plan, err)
			}
			res, err := r.svc.Finish("p1", FinishRequest{Mode: mode})
			if err != nil || !res.Merged || len(res.Conflicts) != 0 {
				t.Fatalf("finish = %+v, %v", res, err)
			}
			if head := git(t, r.repo, "rev-parse", "HEAD"); head != res.Commit {
				t.Errorf("main is at %s, want %s", head, res.Commit)
			}
			// The person's checkout follows (fast-forward) and stays clean.
			for f, want := range map[string]string{"feature.txt": "feature\n", "more.txt": "more\n", "other.txt": "other\n", "app.js": "one\ntwo\nthree\nfour\nfive\nsix\n"} {
				if got := read(t, filepath.Join(r.repo, f)); got != want {
					t.Errorf("%s = %q, want %q", f, got, want)
				}
			}
			if st := git(t, r.repo, "status", "--porcelain"); st != "" {
				t.Errorf("the checkout is not clean: %q", st)
			}
			parents := strings.Fields(git(t, r.repo, "log", "-1", "--format=%P"))
			subjects := git(t, r.repo, "log", "--format=%s", "main")
			switch mode {
			case ModeMerge:
				if len(parents) != 2 || !strings.HasPrefix(subjects, "Merge osf/one into main\n") {
					t.Errorf("merge: parents %v, log:\n%s", parents, subjects)
				}
			case ModeSquash:
				if len(parents) != 1 || subjects != "Work from osf/one\nother work\nfirst" {
					t.Errorf("squash log:\n%s", subjects)
				}
			case ModeRebase:
				if len(parents) != 1 || subjects != "Uncommitted work on osf/one\nadd more\nadd feature\nother work\nfirst" {
					t.Errorf("rebase log:\n%s", subjects)
				}
			}
			// The agent's uncommitted work became its branch's commit; its
			// worktree is clean, its files untouched.
			if st := git(t, wt, "status", "--porcelain"); st != "" {
				t.Errorf("the pane's worktree: %q", st)
			}
			if git(t, r.repo, "log", "-1", "--format=%s", "osf/one") != "Uncommitted work on osf/one" {
				t.Error("the branch did not get the committed work")
			}
			if out := git(t, r.repo, "worktree", "list", "--porcelain"); strings.Count(out, "worktree ") != 2 {
				t.Errorf("a throw-away worktree is left:\n%s", out)
			}
		})
	}
}

func TestFinishWithConflictsShowsThemAndChangesNothing(t *testing.T) {
	for _, mode := range []string{ModeMerge, ModeSquash, ModeRebase} {
		t.Run(mode, func(t *testing.T) {
			r := newRig(t)
			wt := r.wt(0)
			write(t, filepath.Join(wt, "app.js"), "one\ntwo\nTHREE by agent\nfour\nfive\n")
			git(t, wt, "commit", "-qam", "agent edit")
			write(t, filepath.Join(r.repo, "app.js"), "one\ntwo\nthree by person\nfour\nfive\n")
			git(t, r.repo, "commit", "-qam", "person edit")
			write(t, filepath.Join(wt, "wip.txt"), "not committed\n")
			mainBefore, branchBefore := git(t, r.repo, "rev-parse", "main"), git(t, r.repo, "rev-parse", "osf/one")
			res, err := r.svc.Finish("p1", FinishRequest{Mode: mode})
			if err != nil || res.Merged || len(res.Conflicts) != 1 || res.Conflicts[0].Path != "app.js" {
				t.Fatalf("finish = %+v, %v", res, err)
			}
			if txt := res.Conflicts[0].Text; !strings.Contains(txt, "<<<<<<<") || !strings.Contains(txt, "THREE by agent") || !strings.Contains(txt, "three by person") {
				t.Errorf("conflict text:\n%s", txt)
			}
			if git(t, r.repo, "rev-parse", "main") != mainBefore || git(t, r.repo, "rev-parse", "osf/one") != branchBefore {
				t.Error("a branch moved")
			}
			if st := git(t, r.repo, "status", "--porcelain"); st != "" || read(t, filepath.Join(r.repo, "app.js")) != "one\ntwo\nthree by person\nfour\nfive\n" {
				t.Errorf("the person's checkout changed: %q", st)
			}
			if st := git(t, wt, "status", "--porcelain"); st != "?? wip.txt" {
				t.Errorf("the pane's worktree changed: %q", st)
			}
			if out := git(t, r.repo, "worktree", "list", "--porcelain"); strings.Count(out, "worktree ") != 2 {
				t.Errorf("a throw-away worktree is left:\n%s", out)
			}
		})
	}
}

func TestFinishRefusesADirtyBaseCheckoutAndNothingToMerge(t *testing.T) {
	r := newRig(t)
	if _, err := r.svc.Finish("p1", FinishRequest{Mode: ModeMerge}); err == nil || !strings.Contains(err.Error(), "nothing its base does not have") {
		t.Errorf("nothing to merge: %v", err)
	}
	write(t, filepath.Join(r.wt(0), "x.txt"), "x\n")
	write(t, filepath.Join(r.repo, "app.js"), "person's edit\n")
	_, err := r.svc.Finish("p1", FinishRequest{Mode: ModeMerge})
	if err == nil || !strings.Contains(err.Error(), "uncommitted changes ("+r.repo+"): commit or stash them there") {
		t.Fatalf("dirty base: %v", err)
	}
	if read(t, filepath.Join(r.repo, "app.js")) != "person's edit\n" || git(t, r.repo, "log", "--format=%s") != "first" {
		t.Error("the person's work was touched")
	}
	if _, err := r.svc.Finish("p1", FinishRequest{Mode: "octopus"}); err == nil || !strings.Contains(err.Error(), "choose merge, squash or rebase") {
		t.Errorf("bad mode: %v", err)
	}
}

func TestFinishIntoABaseNotCheckedOutMovesOnlyItsRef(t *testing.T) {
	r := newRig(t)
	git(t, r.repo, "checkout", "-q", "-b", "elsewhere")
	write(t, filepath.Join(r.wt(0), "x.txt"), "x\n")
	res, err := r.svc.Finish("p1", FinishRequest{Mode: ModeSquash, Message: "Add x"})
	if err != nil || !res.Merged {
		t.Fatalf("finish = %+v, %v", res, err)
	}
	if git(t, r.repo, "log", "-1", "--format=%s", "main") != "Add x" || git(t, r.repo, "symbolic-ref", "--short", "HEAD") != "elsewhere" {
		t.Error("main did not get the squash, or the checkout moved")
	}
	if git(t, r.repo, "status", "--porcelain") != "" {
		t.Error("the checkout changed")
	}
}
