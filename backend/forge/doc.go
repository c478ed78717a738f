// Package forge pushes a branch and opens a pull request (a merge request on
// GitLab) on the repository's forge: GitHub, GitLab or Gitea/Forgejo, on
// their public hosts or self-hosted ones the person names. It reads the
// forge from the repository's remote, drafts the title and body from the
// branch's commits, and reads the request's link, state and checks back.
//
// It talks to each forge through its maintained client (go-github, GitLab's
// client-go, Gitea's SDK) and runs git as argv, never through a shell.
// Tokens come from the forge CLI's own login (`gh auth token`,
// `glab config get token`) or from the OS keychain, where a token the
// person pasted is kept; a token is never written to a file, and reaches
// git only through its environment for the one push.
//
// Opening is ordered so that nothing is left half-done: the token's push
// right and the target branch are checked before anything is pushed, and
// a branch this package pushed is deleted again when the request cannot
// be opened (or, when even that fails, the error says it is still there).
//
// It never imports the Wails runtime; Binding is the thin bound surface.
package forge
