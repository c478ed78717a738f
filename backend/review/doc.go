// Package review is the Review view of a pane's own branch (a worktree made
// by "On a new branch"): the files changed since the base with their diffs,
// comments on lines kept in the app database until resolved, "Send to
// agent" (one message with every open comment, typed when the pane's agent
// is idle, queued while it works), and Finish: merge, squash or rebase the
// branch into its base locally, then archive the worktree.
//
// Finish never changes anything until the merge has succeeded: it merges
// in a throw-away worktree of its own and only then moves the base (a
// fast-forward of the person's checkout, or the ref when the base is not
// checked out). On conflicts it shows them and leaves every branch, file
// and checkout as it was. It never pushes and never deletes a branch the
// person did not ask to delete; pull requests are another package's.
package review
