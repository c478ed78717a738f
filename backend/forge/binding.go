package forge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Binding is what the window binds for the pull request dialog (the
// Finish panel opens it): read the plan, open, refresh, and keep tokens
// and self-hosted forges. It never touches the Wails runtime.
type Binding struct {
	ctx      context.Context
	opener   *Opener
	settings *Settings
	keychain Keychain
	changed  func() // a request was opened or re-read: the board redraws its cards
}

// NewOpener is the app's Opener: the person's self-hosted forges from
// settings, tokens from the keychain or the forge CLIs (run asks them;
// nil runs the real programs).
func NewOpener(settings *Settings, keychain Keychain, run Runner) *Opener {
	return &Opener{Hosts: settings.Hosts, Tokens: Tokens{Keychain: keychain, Run: run}}
}

// NewBinding binds opener over the person's settings and keychain;
// changed (may be nil) is called when a recorded request changed.
func NewBinding(ctx context.Context, opener *Opener, settings *Settings, keychain Keychain, changed func()) *Binding {
	if changed == nil {
		changed = func() {}
	}
	return &Binding{ctx: ctx, opener: opener, settings: settings, keychain: keychain, changed: changed}
}

// Plan is what the dialog shows before opening: where the request goes,
// a drafted title and body, whose login will push, and the request
// already opened for this branch, if any.
type Plan struct {
	Repo    Repo   `json:"repo"`
	Forge   string `json:"forge"`   // GitHub, GitLab, Gitea
	Request string `json:"request"` // "pull request" or "merge request"
	Branch  string `json:"branch"`
	Base    string `json:"base"`
	Draft   Draft  `json:"draft"`
	// TokenFrom is keychain, gh or glab; "" when there is no token yet,
	// and TokenProblem then says how to get one.
	TokenFrom    string `json:"tokenFrom"`
	TokenProblem string `json:"tokenProblem"`
	// TokenWhere names where a pasted token is (or would be) kept: the OS
	// keychain, or a 0600 file in the app's data folder without one.
	TokenWhere string `json:"tokenWhere"`
	// Uncommitted are the files of dir with changes not committed (only
	// commits are pushed), when dir has the branch checked out.
	Uncommitted []string `json:"uncommitted"`
	Existing    *Record  `json:"existing"`
	// UnknownHost is the remote's host when it is not a forge osFoundry
	// knows; the dialog asks whether it runs GitHub, GitLab or Gitea
	// (AddHost) and reads the plan again. The other fields are empty then.
	UnknownHost string `json:"unknownHost"`
}

// Plan reads the dialog's plan for branch of the repository (or worktree)
// at dir, proposed into base ("" for the remote's default branch).
func (b *Binding) Plan(dir, branch, base string) (Plan, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	branch, base = strings.TrimSpace(branch), strings.TrimSpace(base)
	if dir == "" || branch == "" {
		return Plan{}, errors.New("choose the branch to propose")
	}
	repo, err := b.opener.Detect(ctx, dir, branch)
	if errors.Is(err, ErrUnknownForge) {
		// The dialog asks which software runs there (Settings keeps it).
		if _, url, rerr := remoteOf(ctx, dir, branch); rerr == nil {
			if p, perr := parseRemote(url); perr == nil {
				return Plan{Branch: branch, Base: base, UnknownHost: p.host, Draft: Draft{Commits: []string{}}, Uncommitted: []string{}}, nil
			}
		}
	}
	if err != nil {
		return Plan{}, err
	}
	if base == "" {
		base = defaultBranch(ctx, dir, repo.Remote)
	}
	from := base
	if _, err := git(ctx, dir, nil, "rev-parse", "--verify", "--quiet", "refs/remotes/"+repo.Remote+"/"+base); err == nil {
		from = "refs/remotes/" + repo.Remote + "/" + base
	}
	d, err := DraftFrom(ctx, dir, from, branch)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Repo: repo, Forge: repo.Host.Kind.Label(), Request: repo.Host.Kind.Request(), Branch: branch, Base: base, Draft: d,
		Existing: b.settings.Record(dir, branch), TokenWhere: b.keychain.Where(), Uncommitted: uncommitted(ctx, dir, branch)}
	if _, src, err := b.opener.Tokens.Token(ctx, repo.Host); err != nil {
		p.TokenProblem = err.Error()
	} else {
		p.TokenFrom = src
	}
	return p, nil
}

// defaultBranch is the branch the remote's HEAD names, else main or
// master, whichever the repository has.
func defaultBranch(ctx context.Context, dir, remote string) string {
	if out, err := git(ctx, dir, nil, "symbolic-ref", "--quiet", "--short", "refs/remotes/"+remote+"/HEAD"); err == nil {
		if b := strings.TrimPrefix(out, remote+"/"); b != "" {
			return b
		}
	}
	for _, b := range []string{"main", "master"} {
		if _, err := git(ctx, dir, nil, "rev-parse", "--verify", "--quiet", "refs/heads/"+b); err == nil {
			return b
		}
	}
	return "main"
}

// Open pushes the branch and opens its request (see Opener.Open), and
// keeps it for the pane's card.
func (b *Binding) Open(req OpenRequest) (Opened, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	got, err := b.opener.Open(ctx, req)
	if err != nil {
		return Opened{}, err
	}
	if err := b.settings.Keep(Record{Dir: req.Dir, Branch: req.Branch, Repo: got.Repo, PR: got.PR, CheckedAt: time.Now().UnixMilli()}); err != nil {
		return got, fmt.Errorf("the %s is open at %s, but the card will not show it: %w", got.Repo.Host.Kind.Request(), got.PR.URL, err)
	}
	b.changed()
	return got, nil
}

// Refresh reads the state and checks of the request opened for branch
// from dir again.
func (b *Binding) Refresh(dir, branch string) (Record, error) {
	r := b.settings.Record(dir, branch)
	if r == nil {
		return Record{}, fmt.Errorf("no pull request was opened for %s from this app", branch)
	}
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	pr, err := b.opener.Status(ctx, r.Repo, r.PR.Number)
	if err != nil {
		return *r, err
	}
	r.PR, r.CheckedAt = pr, time.Now().UnixMilli()
	if err := b.settings.Keep(*r); err != nil {
		return *r, err
	}
	b.changed()
	return *r, nil
}

// SaveToken keeps a pasted token for host in the OS keychain (a 0600
// file in the app's data folder where there is none); Settings lists it.
func (b *Binding) SaveToken(host, token string) error {
	host, token = cleanHost(host), strings.TrimSpace(token)
	if host == "" || token == "" {
		return errors.New("paste the token, and say which forge it is for")
	}
	if err := b.keychain.Set(host, token); err != nil {
		return err
	}
	if err := b.settings.notePasted(host, now()); err != nil {
		return fmt.Errorf("the token is saved in %s, but Settings will not list it: %w", b.keychain.Where(), err)
	}
	return nil
}

// ForgetToken removes the pasted token of host from the keychain (the
// forge CLI's own login, if any, is used again).
func (b *Binding) ForgetToken(host string) error {
	host = cleanHost(host)
	if err := b.keychain.Delete(host); err != nil {
		return err
	}
	return b.settings.notePasted(host, 0)
}

// Hosts lists the person's self-hosted forges.
func (b *Binding) Hosts() []Host { return b.settings.Hosts() }

// SetHosts replaces the person's self-hosted forges.
func (b *Binding) SetHosts(hosts []Host) error { return b.settings.SetHosts(hosts) }

// AddHost adds (or replaces) one self-hosted forge.
func (b *Binding) AddHost(h Host) error {
	name := strings.ToLower(strings.TrimSpace(h.Name))
	hosts := []Host{}
	for _, o := range b.settings.Hosts() {
		if o.Name != name {
			hosts = append(hosts, o)
		}
	}
	return b.settings.SetHosts(append(hosts, h))
}
