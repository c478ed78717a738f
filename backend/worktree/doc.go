// Package worktree gives a terminal pane its own branch and working copy:
// a git worktree on osf/<name>, made from a base branch outside the
// repository folder, with the person's local files copied in, a set-up
// command run before the agent starts and a port offset of its own; and
// it reads how far the branch has moved from its base (+added −removed).
//
// git always runs as argv (never a shell string) with the login shell's
// PATH (shellenv.CommandIn). The package never removes a worktree or a
// branch that holds work: a pane's branch outlives the pane, and only a
// failed Create undoes what it made.
package worktree
