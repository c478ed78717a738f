package teamauth

import (
	"context"
	"errors"
	"net/http"
	"testing"
)

// Ids of another workspace, guessed or copied, find nothing: the answer is
// the same 404 as for an id that does not exist, and nothing changes.
func TestAnotherWorkspacesIDsFindNothing(t *testing.T) {
	tm, alice, w1 := ownedTeam(t)
	ctx := context.Background()
	var w2 Workspace
	if code := alice.api("POST", "/api/workspaces", map[string]string{"name": "Second"}, &w2); code != http.StatusOK || w2.Role != Owner {
		t.Fatalf("creating a second workspace: %d %+v", code, w2)
	}
	alice.invite(w2.ID, "bob@example.com", Owner)
	alice.invite(w1, "carol@example.com", Viewer)
	bob, carol := tm.browser(), tm.browser()
	pb, pc := bob.signIn("bob"), carol.signIn("carol")
	if code := alice.api("DELETE", "/api/workspaces/"+w2.ID+"/members/"+alice.memberID(w2.ID, "alice@example.com"), nil, nil); code != http.StatusNoContent {
		t.Fatalf("alice leaves the second workspace: %d", code)
	}
	bobInW2 := bob.memberID(w2.ID, "bob@example.com")
	carolInW1 := alice.memberID(w1, "carol@example.com")

	var unknown apiError
	if code := alice.api("GET", "/api/workspaces/ws_000000000000000000000000/members", nil, &unknown); code != http.StatusNotFound {
		t.Fatalf("an unknown workspace: %d", code)
	}
	for _, c := range []struct {
		name, method, path string
		b                  *browser
		in                 any
	}{
		{"list another workspace's members", "GET", "/api/workspaces/" + w2.ID + "/members", alice, nil},
		{"ask for access there", "GET", "/api/workspaces/" + w2.ID + "/access?action=read", alice, nil},
		{"invite into it", "POST", "/api/workspaces/" + w2.ID + "/members", alice, Invitation{Email: "x@example.com", Role: Owner}},
		{"change its member through my workspace", "PATCH", "/api/workspaces/" + w1 + "/members/" + bobInW2, alice, Change{Role: ptr(Viewer)}},
		{"remove its member through my workspace", "DELETE", "/api/workspaces/" + w1 + "/members/" + bobInW2, alice, nil},
		{"name its member approver in mine", "PUT", "/api/workspaces/" + w1 + "/projects/p/approvers/" + bobInW2, alice, nil},
		{"promote a member of the other workspace", "PATCH", "/api/workspaces/" + w2.ID + "/members/" + carolInW1, bob, Change{Role: ptr(Owner)}},
		{"remove a member of the other workspace", "DELETE", "/api/workspaces/" + w2.ID + "/members/" + carolInW1, bob, nil},
	} {
		var e apiError
		if code := c.b.api(c.method, c.path, c.in, &e); code != http.StatusNotFound {
			t.Fatalf("%s: %d %q; want 404", c.name, code, e.Error)
		}
	}
	if err := tm.replicas[0].Require(ctx, pb.ID, w1, Read); !errors.Is(err, ErrNotMember) {
		t.Fatalf("bob reads the first workspace: %v", err)
	}
	d, err := tm.replicas[1].Can(ctx, pc.ID, w1, Write)
	if err != nil || d.Allowed || d.Role != Viewer {
		t.Fatalf("carol, after bob's guesses: %+v %v", d, err)
	}
	var ms []Member
	if code := bob.api("GET", "/api/workspaces/"+w2.ID+"/members", nil, &ms); code != http.StatusOK || len(ms) != 1 || ms[0].Role != Owner {
		t.Fatalf("the second workspace after alice's guesses: %d %+v", code, ms)
	}
	var e apiError
	if code := carol.api("POST", "/api/workspaces", map[string]string{"name": "Mine"}, &e); code != http.StatusForbidden {
		t.Fatalf("a viewer creates a workspace: %d %q", code, e.Error)
	}
}
