package board

import "testing"

// prsByBranch is a PullRequests over a map: branch → request.
type prsByBranch struct {
	m       map[string]*PullRequest
	changed func()
}

func (p *prsByBranch) PullRequest(dir, branch string) *PullRequest {
	if dir != "/wt/shop" {
		return nil
	}
	return p.m[branch]
}

func (p *prsByBranch) Watch(changed func()) { p.changed = changed }

// A card on a branch shows the request opened for it; one without a
// branch, or whose branch has none, shows nothing.
func TestCardsShowTheirPullRequest(t *testing.T) {
	b := New(t.TempDir(), nil)
	b.Add("terminal", &fakeSource{cards: []Card{
		{ID: "p-1", Title: "on a branch", Dir: "/wt/shop", Branch: "osf/login", State: "working"},
		{ID: "p-2", Title: "other branch", Dir: "/wt/shop", Branch: "osf/none", State: "working"},
		{ID: "p-3", Title: "plain folder", Dir: "/wt/shop", State: "working"},
	}})
	pr := &PullRequest{URL: "https://example.org/o/shop/pulls/3", Number: 3, Forge: "Gitea", State: "open", Checks: "pending"}
	prs := &prsByBranch{m: map[string]*PullRequest{"osf/login": pr, "": pr}}
	b.SetPullRequests(prs)
	if prs.changed == nil {
		t.Fatal("the board does not watch for new requests")
	}
	got := map[string]*PullRequest{}
	for _, c := range b.Cards() {
		got[c.ID] = c.PullRequest
	}
	if got["p-1"] != pr || got["p-2"] != nil || got["p-3"] != nil {
		t.Fatalf("cards' requests: %+v", got)
	}
}
