package teamauth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The setup link makes exactly one first owner: opened signed out it goes
// through the sign-in and back; used twice, expired, forged, or after an
// owner exists, it makes nobody owner.
func TestBootstrapLinkMakesOneOwner(t *testing.T) {
	tm := newTeam(t)
	ctx := context.Background()
	stale, err := tm.replicas[0].BootstrapLink(ctx)
	if err != nil || !strings.HasPrefix(stale, tm.URL+bootstrapPath+"?token=osfboot_") {
		t.Fatalf("setup link: %q, %v", stale, err)
	}
	tm.clock.Advance(time.Hour + time.Minute)
	link, err := tm.replicas[1].BootstrapLink(ctx)
	if err != nil || link == "" || link == stale {
		t.Fatalf("second replica's setup link: %q, %v", link, err)
	}
	other, err := tm.replicas[0].BootstrapLink(ctx)
	if err != nil || other == "" {
		t.Fatalf("third setup link: %q, %v", other, err)
	}
	var clear int
	if err := tm.pool.QueryRow(ctx, `SELECT count(*) FROM teamauth_bootstrap WHERE hash = $1`, mustQuery(t, link, "token")).Scan(&clear); err != nil || clear != 0 {
		t.Fatalf("setup tokens stored in clear: %d, %v", clear, err)
	}
	tm.clock.Reset() // the provider mints tokens in real time

	alice := tm.browser()
	// signed out: the link sends the browser through the sign-in and back
	cb := alice.atProvider(alice.get(stale).URL.String(), "alice")
	_, back := alice.step("GET", cb, nil)
	if back != stale {
		t.Fatalf("after the sign-in the browser goes to %q, want back to the link", back)
	}
	tm.clock.Advance(time.Hour + time.Minute)
	if p := alice.get(back); p.Code != http.StatusGone || !strings.Contains(p.Body, "expired: restart the server") {
		t.Fatalf("an expired link: %d %q", p.Code, p.Body)
	}
	if p := alice.get(tm.URL + bootstrapPath + "?token=osfboot_forged"); p.Code != http.StatusNotFound {
		t.Fatalf("a forged link: %d %q", p.Code, p.Body)
	}
	p := alice.get(link)
	if p.Code != http.StatusOK || !strings.Contains(p.Body, "You own “Team”") {
		t.Fatalf("the setup link: %d %q", p.Code, p.Body)
	}
	tm.clock.Reset()
	var ws []Workspace
	if code := alice.api("GET", "/api/workspaces", nil, &ws); code != http.StatusOK || len(ws) != 1 || ws[0].Role != Owner {
		t.Fatalf("alice's workspaces: %d %+v", code, ws)
	}

	for _, c := range []struct {
		name string
		b    *browser
		link string
	}{{"the same person again", alice, link}, {"someone else", tm.browser(), link}, {"another replica's link", tm.browser(), other}} {
		if c.b != alice {
			c.b.signIn("bob")
		}
		if p := c.b.get(c.link); p.Code != http.StatusGone || !strings.Contains(p.Body, "already used: ask the workspace's owner to invite you") {
			t.Fatalf("%s: %d %q", c.name, p.Code, p.Body)
		}
	}
	var owners, workspaces int
	if err := tm.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM teamauth_members WHERE role = 'owner'), (SELECT count(*) FROM teamauth_workspaces)`).
		Scan(&owners, &workspaces); err != nil || owners != 1 || workspaces != 1 {
		t.Fatalf("owners %d, workspaces %d (%v); want one of each", owners, workspaces, err)
	}
	if again, err := tm.replicas[1].BootstrapLink(ctx); err != nil || again != "" {
		t.Fatalf("a setup link once an owner exists: %q, %v", again, err)
	}
}

// Two people racing for one link: one owner.
func TestBootstrapRace(t *testing.T) {
	tm := newTeam(t)
	ctx := context.Background()
	link, err := tm.replicas[0].BootstrapLink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, b := tm.browser(), tm.browser()
	pa, pb := a.signIn("alice"), b.signIn("bob")
	tok := mustQuery(t, link, "token")
	errs := make(chan error, 2)
	for i, p := range []Person{pa, pb} {
		go func() { _, err := tm.replicas[i].ClaimBootstrap(ctx, p.ID, tok); errs <- err }()
	}
	var wins int
	var lost error
	for range 2 {
		if err := <-errs; err == nil {
			wins++
		} else {
			lost = err
		}
	}
	if wins != 1 || !errors.Is(lost, ErrBootstrapUsed) {
		t.Fatalf("%d claims won, the other said %v; want one winner and 'already used'", wins, lost)
	}
}
