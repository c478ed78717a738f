package teamauth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// ownedTeam is a team whose first owner, alice, claimed the setup link.
func ownedTeam(t *testing.T) (*team, *browser, string) {
	t.Helper()
	tm := newTeam(t)
	link, err := tm.replicas[0].BootstrapLink(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	alice := tm.browser()
	alice.signIn("alice")
	if p := alice.get(link); p.Code != http.StatusOK {
		t.Fatalf("setup link: %d %s", p.Code, p.Body)
	}
	var ws []Workspace
	if code := alice.api("GET", "/api/workspaces", nil, &ws); code != http.StatusOK || len(ws) != 1 {
		t.Fatalf("alice's workspaces: %d %+v", code, ws)
	}
	return tm, alice, ws[0].ID
}

func (b *browser) invite(ws, email string, role Role) Member {
	b.t.Helper()
	var m Member
	if code := b.api("POST", "/api/workspaces/"+ws+"/members", Invitation{Email: email, Role: role}, &m); code != http.StatusOK {
		b.t.Fatalf("inviting %s: %d", email, code)
	}
	return m
}

func (b *browser) memberID(ws, email string) string {
	b.t.Helper()
	var ms []Member
	if code := b.api("GET", "/api/workspaces/"+ws+"/members", nil, &ms); code != http.StatusOK {
		b.t.Fatalf("members of %s: %d", ws, code)
	}
	for _, m := range ms {
		if m.Email == email {
			return m.ID
		}
	}
	b.t.Fatalf("%s is not in %+v", email, ms)
	return ""
}

func ptr[T any](v T) *T { return &v }

func TestRolesAreCheckedOnEveryCall(t *testing.T) {
	tm, alice, ws := ownedTeam(t)
	ctx := context.Background()
	members := "/api/workspaces/" + ws + "/members"
	svc := tm.replicas[1]

	// invitations before the sign-in; dave signed in before his
	if m := alice.invite(ws, "BOB@example.com", Editor); !m.Invited || m.Email != "bob@example.com" {
		t.Fatalf("invitation: %+v", m)
	}
	alice.invite(ws, "carol@example.com", Viewer)
	alice.invite(ws, "erin@example.com", Editor)
	bob, carol, dave, erin := tm.browser(), tm.browser(), tm.browser(), tm.browser()
	pb, pc, pd, pe := bob.signIn("bob"), carol.signIn("carol"), dave.signIn("dave"), erin.signIn("erin")
	if m := alice.invite(ws, "dave@example.com", Editor); m.Invited || m.PersonID != pd.ID {
		t.Fatalf("inviting someone who already signed in: %+v", m)
	}
	var ws2 []Workspace
	if code := bob.api("GET", "/api/workspaces", nil, &ws2); code != http.StatusOK || len(ws2) != 1 || ws2[0].Role != Editor {
		t.Fatalf("bob's workspaces after his first sign-in: %d %+v", code, ws2)
	}
	if d, _ := svc.Can(ctx, pe.ID, ws, Read); d.Member {
		t.Fatal("an email the provider did not verify claimed an invitation")
	}

	check := func(name string, d Decision, err error, allowed bool, why string) {
		t.Helper()
		if err != nil || d.Allowed != allowed || !strings.Contains(d.Reason, why) {
			t.Fatalf("%s: %+v, %v; want allowed=%v saying %q", name, d, err, allowed, why)
		}
	}
	d, err := svc.Can(ctx, pb.ID, ws, Write)
	check("editor writes", d, err, true, "change content")
	d, err = svc.Can(ctx, pc.ID, ws, Write)
	check("viewer writes", d, err, false, "viewers read only")
	d, err = svc.Can(ctx, pc.ID, ws, Read)
	check("viewer reads", d, err, true, "members read")
	d, err = svc.Can(ctx, pb.ID, ws, StartRun)
	check("editor without the runner role", d, err, false, "needs the runner role")

	var e apiError
	var got Decision
	if code := carol.api("GET", "/api/workspaces/"+ws+"/access?action=write", nil, &got); code != http.StatusOK || got.Allowed || got.Role != Viewer {
		t.Fatalf("carol asks whether she may write: %d %+v", code, got)
	}
	if code := carol.api("GET", "/api/workspaces/"+ws+"/access?action=fly", nil, &e); code != http.StatusBadRequest || !strings.Contains(e.Error, "pass action=read") {
		t.Fatalf("an unknown action: %d %q", code, e.Error)
	}
	bobID, carolID, aliceID := alice.memberID(ws, "bob@example.com"), alice.memberID(ws, "carol@example.com"), alice.memberID(ws, "alice@example.com")
	for _, c := range []struct {
		name string
		b    *browser
		path string
		in   any
		code int
		why  string
	}{
		{"a viewer changes a role", carol, members + "/" + bobID, Change{Role: ptr(Owner)}, http.StatusForbidden, "only owners"},
		{"an editor changes a role", bob, members + "/" + carolID, Change{Role: ptr(Editor)}, http.StatusForbidden, "only owners"},
		{"a viewer gets the runner role", alice, members + "/" + carolID, Change{Runner: ptr(true)}, http.StatusBadRequest, "make them an editor first"},
		{"a role that does not exist", alice, members + "/" + carolID, Change{Role: ptr(Role("admin"))}, http.StatusBadRequest, "pick owner, editor or viewer"},
		{"the last owner steps down", alice, members + "/" + aliceID, Change{Role: ptr(Editor)}, http.StatusConflict, "last owner"},
	} {
		if code := c.b.api("PATCH", c.path, c.in, &e); code != c.code || !strings.Contains(e.Error, c.why) {
			t.Fatalf("%s: %d %q; want %d saying %q", c.name, code, e.Error, c.code, c.why)
		}
	}
	if code := alice.api("DELETE", members+"/"+aliceID, nil, &e); code != http.StatusConflict || !strings.Contains(e.Error, "make another member owner first") {
		t.Fatalf("the last owner leaves: %d %q", code, e.Error)
	}
	if code := carol.api("DELETE", members+"/"+bobID, nil, &e); code != http.StatusForbidden {
		t.Fatalf("a viewer removes a member: %d %q", code, e.Error)
	}
	if code := alice.api("POST", members, Invitation{Email: "not an address", Role: Viewer}, &e); code != http.StatusBadRequest || !strings.Contains(e.Error, "is not an email address") {
		t.Fatalf("inviting a non-address: %d %q", code, e.Error)
	}
	if code := alice.api("POST", members, Invitation{Email: "bob@example.com", Role: Viewer}, &e); code != http.StatusConflict {
		t.Fatalf("inviting a member again: %d %q", code, e.Error)
	}

	// the runner role and approvers
	var m Member
	if code := alice.api("PATCH", members+"/"+bobID, Change{Runner: ptr(true)}, &m); code != http.StatusOK || !m.Runner || m.Role != Editor {
		t.Fatalf("granting the runner role: %d %+v", code, m)
	}
	d, err = svc.Can(ctx, pb.ID, ws, StartRun)
	check("runner starts a run", d, err, true, "runner role")
	d, err = svc.CanApprove(ctx, alice.me().ID, ws, "p1")
	check("owner approves where nobody is named", d, err, true, "owners approve")
	approvers := "/api/workspaces/" + ws + "/projects/p1/approvers/"
	if code := alice.api("PUT", approvers+bobID, nil, nil); code != http.StatusNoContent {
		t.Fatalf("naming an approver: %d", code)
	}
	if code := alice.api("PUT", approvers+carolID, nil, &e); code != http.StatusBadRequest {
		t.Fatalf("naming a viewer approver: %d %q", code, e.Error)
	}
	if code := carol.api("PUT", approvers+carolID, nil, &e); code != http.StatusForbidden {
		t.Fatalf("a viewer names herself approver: %d %q", code, e.Error)
	}
	d, err = svc.CanApprove(ctx, pb.ID, ws, "p1")
	check("named approver", d, err, true, "an approver of this project")
	d, err = svc.CanApprove(ctx, alice.me().ID, ws, "p1")
	check("owner not named", d, err, false, "not an approver")
	d, err = svc.CanApprove(ctx, pd.ID, ws, "p2")
	check("editor where nobody is named", d, err, false, "only owners approve")

	// removal counts from the very next call, on any replica
	tm.routeBy(func(*http.Request) int { return 1 })
	if code := bob.api("GET", members, nil, nil); code != http.StatusOK {
		t.Fatalf("bob lists members: %d", code)
	}
	tm.routeBy(func(*http.Request) int { return 0 })
	if code := alice.api("DELETE", members+"/"+bobID, nil, nil); code != http.StatusNoContent {
		t.Fatalf("removing bob: %d", code)
	}
	tm.routeBy(func(*http.Request) int { return 1 })
	if code := bob.api("GET", members, nil, &e); code != http.StatusNotFound || !strings.Contains(e.Error, "not a member") {
		t.Fatalf("bob lists members after his removal: %d %q", code, e.Error)
	}
	for _, act := range []Action{Read, Write, StartRun} {
		if err := svc.Require(ctx, pb.ID, ws, act); !errors.Is(err, ErrNotMember) {
			t.Fatalf("%s after removal: %v", act, err)
		}
	}
	if d, err := svc.CanApprove(ctx, pb.ID, ws, "p1"); err != nil || d.Allowed {
		t.Fatalf("approving after removal: %+v %v", d, err)
	}
	if bob.me().ID != pb.ID {
		t.Fatal("removal from a workspace signed bob out of the server")
	}

	// a member may leave; a demoted member loses what the role allowed
	if code := dave.api("DELETE", members+"/"+alice.memberID(ws, "dave@example.com"), nil, nil); code != http.StatusNoContent {
		t.Fatalf("dave leaves: %d", code)
	}
	if code := alice.api("PATCH", members+"/"+carolID, Change{Role: ptr(Editor)}, nil); code != http.StatusOK {
		t.Fatalf("promoting carol: %d", code)
	}
	d, err = svc.Can(ctx, pc.ID, ws, Write)
	check("carol promoted", d, err, true, "change content")
	if code := alice.api("PATCH", members+"/"+carolID, Change{Role: ptr(Viewer)}, nil); code != http.StatusOK {
		t.Fatalf("demoting carol: %d", code)
	}
	d, err = svc.Can(ctx, pc.ID, ws, Write)
	check("carol demoted", d, err, false, "viewers read only")
}

// Writes another site starts, or a plain form, are refused.
func TestMembersAPIRefusesCrossSiteWrites(t *testing.T) {
	tm, alice, ws := ownedTeam(t)
	path := tm.URL + "/api/workspaces/" + ws + "/members"
	body := `{"email":"x@example.com","role":"owner"}`
	for _, c := range []struct {
		name string
		hdr  []string
		code int
	}{
		{"another origin", []string{"Origin", "https://evil.example", "Content-Type", "application/json"}, http.StatusForbidden},
		{"a cross-site fetch without Origin", []string{"Sec-Fetch-Site", "cross-site", "Content-Type", "application/json"}, http.StatusForbidden},
		{"a form post", []string{"Origin", tm.URL, "Content-Type", "application/x-www-form-urlencoded"}, http.StatusBadRequest},
	} {
		if p, _ := alice.step("POST", path, strings.NewReader(body), c.hdr...); p.Code != c.code {
			t.Fatalf("%s: %d %s", c.name, p.Code, p.Body)
		}
	}
	var ms []Member
	if alice.api("GET", "/api/workspaces/"+ws+"/members", nil, &ms); len(ms) != 1 {
		t.Fatalf("members after refused writes: %+v", ms)
	}
}

// Two owners leaving at once, or removing each other at once, leave one
// owner: changes of members queue on the workspace's row.
func TestOwnersLeavingAtOnceKeepOne(t *testing.T) {
	for _, c := range []struct {
		name  string
		cross bool
		want  error
	}{{"both leave", false, ErrLastOwner}, {"each removes the other", true, ErrNotMember}} {
		t.Run(c.name, func(t *testing.T) {
			tm, alice, ws := ownedTeam(t)
			ctx := context.Background()
			dave := tm.browser()
			pd := dave.signIn("dave")
			alice.invite(ws, "dave@example.com", Owner)
			pa := alice.me()
			aID, dID := alice.memberID(ws, "alice@example.com"), alice.memberID(ws, "dave@example.com")
			if c.cross {
				aID, dID = dID, aID
			}
			errs := make(chan error, 2)
			go func() { errs <- tm.replicas[0].RemoveMember(ctx, pa.ID, ws, aID) }()
			go func() { errs <- tm.replicas[1].RemoveMember(ctx, pd.ID, ws, dID) }()
			e1, e2 := <-errs, <-errs
			if (e1 == nil) == (e2 == nil) || !errors.Is(errors.Join(e1, e2), c.want) {
				t.Fatalf("removals: %v, %v; want one done and the other refused with %v", e1, e2, c.want)
			}
			var owners int
			if err := tm.pool.QueryRow(ctx, `SELECT count(*) FROM teamauth_members WHERE workspace_id = $1 AND role = 'owner'`, ws).Scan(&owners); err != nil || owners != 1 {
				t.Fatalf("owners left: %d, %v", owners, err)
			}
		})
	}
}
