package forge

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// memKeychain is the OS keychain's behaviour in memory.
type memKeychain map[string]string

func (m memKeychain) Get(h string) (string, error) { return m[h], nil }
func (m memKeychain) Set(h, t string) error        { m[h] = t; return nil }
func (m memKeychain) Delete(h string) error        { delete(m, h); return nil }
func (m memKeychain) Where() string                { return "memory" }

// A pasted token wins; else the forge CLI is asked for its own login, by
// argv and for that host only; with neither, the error says what to do.
func TestTokensOrder(t *testing.T) {
	var asked [][]string
	run := func(_ context.Context, name string, args ...string) (string, error) {
		asked = append(asked, append([]string{name}, args...))
		if name == "gh" {
			return "gho_fromcli", nil
		}
		return "", errors.New("not signed in")
	}
	kc := memKeychain{}
	toks := Tokens{Keychain: kc, Run: run}
	gh := Host{Name: "github.com", Kind: GitHub}

	tok, from, err := toks.Token(context.Background(), gh)
	if err != nil || tok != "gho_fromcli" || from != "gh" || strings.Join(asked[0], " ") != "gh auth token --hostname github.com" {
		t.Fatalf("from gh: %q %q %v (asked %v)", tok, from, err, asked)
	}
	kc["github.com"] = "pasted"
	if tok, from, _ := toks.Token(context.Background(), gh); tok != "pasted" || from != "keychain" {
		t.Fatalf("pasted token: %q from %q", tok, from)
	}
	asked = nil
	_, _, err = toks.Token(context.Background(), Host{Name: "gitlab.example.org:8443", Kind: GitLab})
	if !errors.Is(err, ErrNoToken) || !strings.Contains(err.Error(), "glab auth login") ||
		strings.Join(asked[0], " ") != "glab config get token --host gitlab.example.org" {
		t.Fatalf("no glab login: %v (asked %v)", err, asked)
	}
	if _, _, err := toks.Token(context.Background(), Host{Name: "git.example.org", Kind: Gitea}); !errors.Is(err, ErrNoToken) || !strings.Contains(err.Error(), "paste a token") {
		t.Fatalf("gitea without token: %v", err)
	}
}

func TestSettingsHostsAreChecked(t *testing.T) {
	s, err := OpenSettings(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]Host{
		{{Name: "https://git.example.org", Kind: Gitea}},
		{{Name: "git.example.org", Kind: "svn"}},
		{{Name: "git.example.org", Kind: Gitea, API: "ftp://x"}},
		{{Name: "a.org", Kind: Gitea}, {Name: "A.org", Kind: GitLab}},
	} {
		if err := s.SetHosts(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if err := s.SetHosts([]Host{{Name: " Git.Example.org ", Kind: Gitea}}); err != nil {
		t.Fatal(err)
	}
	again, err := OpenSettings(filepath.Dir(s.path))
	if err != nil || len(again.Hosts()) != 1 || again.Hosts()[0].Name != "git.example.org" {
		t.Fatalf("read back: %+v %v", again.Hosts(), err)
	}
}

// brokenKeychain is a desktop without a Secret Service.
type brokenKeychain struct{}

func (brokenKeychain) Get(string) (string, error) { return "", errors.New("no D-Bus session") }
func (brokenKeychain) Set(string, string) error   { return errors.New("no D-Bus session") }
func (brokenKeychain) Delete(string) error        { return errors.New("no D-Bus session") }
func (brokenKeychain) Where() string              { return "nowhere" }

// A keychain that cannot be read still lets the CLI's login through, and
// without one the error says the keychain is missing.
func TestTokensWithoutKeychain(t *testing.T) {
	run := func(_ context.Context, name string, _ ...string) (string, error) {
		if name == "glab" {
			return "glpat-x", nil
		}
		return "", errors.New("not installed")
	}
	toks := Tokens{Keychain: brokenKeychain{}, Run: run}
	if tok, from, err := toks.Token(context.Background(), Host{Name: "gitlab.com", Kind: GitLab}); err != nil || tok != "glpat-x" || from != "glab" {
		t.Fatalf("glab through a broken keychain: %q %q %v", tok, from, err)
	}
	_, _, err := toks.Token(context.Background(), Host{Name: "github.com", Kind: GitHub})
	if !errors.Is(err, ErrNoToken) || !strings.Contains(err.Error(), "cannot be read here: no D-Bus session") {
		t.Fatalf("no token, no keychain: %v", err)
	}
}

// The card of a pane opened in a subfolder of the worktree finds the
// request opened from the worktree; another worktree's does not.
func TestRecordsMatchSubfolders(t *testing.T) {
	s, err := OpenSettings(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Keep(Record{Dir: "/w/cafe.osf-worktrees/login", Branch: "osf/login", PR: PullRequest{Number: 4}}); err != nil {
		t.Fatal(err)
	}
	if r := s.Record("/w/cafe.osf-worktrees/login/web", "osf/login"); r == nil || r.PR.Number != 4 {
		t.Fatalf("subfolder: %+v", r)
	}
	if r := s.Record("/w/cafe.osf-worktrees/login-2", "osf/login"); r != nil {
		t.Fatalf("a sibling folder matched: %+v", r)
	}
	if r := s.Record("/w/cafe.osf-worktrees/login", "osf/other"); r != nil {
		t.Fatalf("another branch matched: %+v", r)
	}
}

// Only open and draft requests are followed; merged and closed ones stay
// as last read.
func TestOpenRecords(t *testing.T) {
	s, err := OpenSettings(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range []string{"open", "merged", "draft", "closed"} {
		if err := s.Keep(Record{Dir: "/w", Branch: st, PR: PullRequest{Number: int64(i), State: st}}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, r := range s.Open() {
		got = append(got, r.Branch)
	}
	if strings.Join(got, ",") != "draft,open" {
		t.Fatalf("followed: %v", got)
	}
}
