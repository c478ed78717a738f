package forge

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// git runs git in dir as argv (never a shell) and returns its trimmed
// standard output; the error carries git's own message. env is added to
// the process's environment (the push's auth header travels there, never
// on the command line where other users' ps would see it).
func git(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		if ctx.Err() != nil {
			return "", fmt.Errorf("git %s: %w", args[0], ctx.Err())
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return strings.TrimSpace(out.String()), nil
}

// authEnv gives git the token for one command through GIT_CONFIG_*
// environment entries: an http.extraHeader scoped to the remote's URL, as
// actions/checkout does, so the token is not in the repository's config,
// not in argv and not in a credential store. Over SSH it is empty: the
// person's own key pushes.
func authEnv(r Repo, token string) []string {
	if !r.HTTP || token == "" {
		return nil
	}
	user := "oauth2"
	if r.Host.Kind == GitHub {
		user = "x-access-token"
	}
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + token))
	// Scoped to the forge's host (git matches http.<url>.* by prefix), so
	// a pushInsteadOf on the same host still gets it and no other host does.
	scope := r.RemoteURL
	if p, err := parseRemote(r.RemoteURL); err == nil {
		scope = p.scheme + "://" + p.host + "/"
	}
	return []string{
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=http." + scope + ".extraHeader",
		"GIT_CONFIG_VALUE_0=Authorization: Basic " + basic,
	}
}

// remoteOf picks the remote a branch pushes to: the branch's own
// upstream remote, else "origin", else the only remote.
func remoteOf(ctx context.Context, dir, branch string) (name, url string, err error) {
	name, _ = git(ctx, dir, nil, "config", "--get", "branch."+branch+".remote")
	if name == "" || name == "." {
		list, err := git(ctx, dir, nil, "remote")
		if err != nil {
			return "", "", fmt.Errorf("listing the repository's remotes: %w", err)
		}
		names := strings.Fields(list)
		switch {
		case len(names) == 0:
			return "", "", ErrNoRemote
		case containsStr(names, "origin"):
			name = "origin"
		case len(names) == 1:
			name = names[0]
		default:
			return "", "", fmt.Errorf("the repository has several remotes (%s) and none is origin: set the branch's upstream (git branch --set-upstream-to) to choose one", strings.Join(names, ", "))
		}
	}
	url, err = git(ctx, dir, nil, "remote", "get-url", name)
	if err != nil {
		return "", "", fmt.Errorf("reading remote %s: %w", name, err)
	}
	return name, url, nil
}

// ErrNoRemote means the repository has no remote to push to.
var ErrNoRemote = errors.New("the repository has no remote: add one (git remote add origin <URL>) to open a pull request")

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// remoteHas reports whether the remote has branch, asking the place a
// push goes (ls-remote on the push URL) rather than trusting the local
// tracking refs.
func remoteHas(ctx context.Context, dir string, r Repo, token, branch string) (bool, error) {
	push, err := git(ctx, dir, nil, "remote", "get-url", "--push", r.Remote)
	if err != nil {
		return false, fmt.Errorf("reading the push URL of %s: %w", r.Remote, err)
	}
	out, err := git(ctx, dir, authEnv(r, token), "ls-remote", "--heads", push, "refs/heads/"+branch)
	if err != nil {
		return false, fmt.Errorf("asking %s for branch %s: %w", r.Remote, branch, err)
	}
	return out != "", nil
}

// uncommitted lists the files of dir with changes not committed —
// staged, unstaged or new and not ignored — when dir has branch checked
// out; none otherwise (or when git cannot tell).
func uncommitted(ctx context.Context, dir, branch string) []string {
	out := []string{}
	if head, err := git(ctx, dir, nil, "symbolic-ref", "--quiet", "--short", "HEAD"); err != nil || head != branch {
		return out
	}
	work, err := git(ctx, dir, nil, "ls-files", "--modified", "--others", "--exclude-standard", "--full-name")
	if err != nil {
		return out
	}
	staged, err := git(ctx, dir, nil, "diff", "--cached", "--name-only")
	if err != nil {
		return out
	}
	seen := map[string]bool{}
	for _, f := range strings.Split(work+"\n"+staged, "\n") {
		if f = strings.TrimSpace(f); f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
