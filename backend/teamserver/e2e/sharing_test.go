package e2e_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// sharing is "share a project with a teammate" as people do it in their
// browsers: alice creates a project, bob (an editor she invited) connects
// his assistant, which reaches nothing until he gives it that project on
// his page; then it reads what alice put there. Nobody manages another
// person's assistant, a project of another workspace cannot be given, a
// form from another site is refused, and taking a project away or
// revoking works on the assistant's next call.
func sharing(t *testing.T, c *cluster) {
	var roadmap notes.Project
	if code := c.alice.api("POST", "/api/workspaces/"+c.ws+"/projects", map[string]string{"name": "Roadmap"}, &roadmap); code != http.StatusOK || roadmap.ID == "" {
		t.Fatalf("alice creating a project: %d %+v", code, roadmap)
	}
	if code := c.alice.api("POST", "/api/workspaces/"+c.ws+"/projects", map[string]string{"name": "roadmap"}, nil); code != http.StatusConflict {
		t.Fatalf("a second project named roadmap: %d, want 409", code)
	}
	if code := c.bob.api("POST", "/api/workspaces/"+c.other+"/projects", map[string]string{"name": "Mine"}, nil); code != http.StatusNotFound {
		t.Fatalf("bob creating a project in a workspace he is not in: %d, want 404", code)
	}
	// Bob creates one through the page's form.
	if code, loc, _ := c.bob.form("/web/workspaces/"+c.ws+"/projects", url.Values{"name": {"Hiring"}}, c.lb.URL); code != http.StatusSeeOther || loc != "/#ws-"+c.ws {
		t.Fatalf("bob's Create project form: %d → %q", code, loc)
	}
	var ps []notes.Project
	if code := c.bob.api("GET", "/api/workspaces/"+c.ws+"/projects", nil, &ps); code != http.StatusOK || !hasProject(ps, "Roadmap") || !hasProject(ps, "Hiring") {
		t.Fatalf("the workspace's projects as bob sees them: %d %+v", code, ps)
	}
	note, err := c.notes.CreateNote(bg, notes.NewNote{Workspace: c.ws, Project: roadmap.ID, Title: "Roadmap 2027", Text: "- teams"})
	must(t, err)

	a := c.connectNew(t, c.bob, "bob", "osfoundry:read osfoundry:write")
	read := map[string]any{"note_id": note.ID}
	if got := a.call("list_note_tabs", read); got != "DENY not_in_project" {
		t.Fatalf("before bob gives it the project, his assistant reading alice's note: %s", got)
	}
	if _, page := c.bob.get("/"); !strings.Contains(page, `action="/web/connections/`+a.conn+`/projects"`) || !strings.Contains(page, "Give access") {
		t.Fatalf("bob's page does not offer his assistant the projects:\n%s", page)
	}
	give := url.Values{"project": {roadmap.ID}, "access": {"on"}}
	// Another site's page cannot send the form, even with bob's cookies.
	if code, _, _ := c.bob.form("/web/connections/"+a.conn+"/projects", give, "https://evil.example"); code != http.StatusForbidden {
		t.Fatalf("a form from another site: %d, want 403", code)
	}
	if got := a.call("list_note_tabs", read); got != "DENY not_in_project" {
		t.Fatalf("after the refused form: %s", got)
	}
	if code, loc, _ := c.bob.form("/web/connections/"+a.conn+"/projects", give, c.lb.URL); code != http.StatusSeeOther || loc != "/#conn-"+a.conn {
		t.Fatalf("bob's Give access form: %d → %q", code, loc)
	}
	if got := a.call("list_note_tabs", read); got != "OK Roadmap 2027" {
		t.Fatalf("after bob gave it the project, his assistant reading alice's note: %s", got)
	}
	if _, page := c.bob.get("/"); !strings.Contains(page, "Roadmap: can reach it") || !strings.Contains(page, `href="/needs-you"`) {
		t.Fatalf("bob's page does not show the access:\n%s", page)
	}

	// Nobody else's: alice's assistant is not bob's to change, a project
	// of a workspace bob is not in cannot be given, a made-up one neither.
	alices := c.connectNew(t, c.alice, "alice", "osfoundry:read")
	for _, tc := range []struct {
		who  *browser
		conn string
		proj string
		want int
	}{
		{c.bob, alices.conn, roadmap.ID, http.StatusNotFound},
		{c.bob, a.conn, "proj-x", http.StatusNotFound},
		{c.bob, a.conn, "proj-zz", http.StatusNotFound},
		{c.bob, "conn-zz", roadmap.ID, http.StatusNotFound},
		{c.bob, a.conn, "../../x", http.StatusNotFound},
	} {
		if code := tc.who.api("PUT", "/api/connections/"+url.PathEscape(tc.conn)+"/projects/"+url.PathEscape(tc.proj), nil, nil); code != tc.want {
			t.Fatalf("PUT %s/%s: %d, want %d", tc.conn, tc.proj, code, tc.want)
		}
	}
	// An owner may manage any connection of the workspace.
	if code := c.alice.api("DELETE", "/api/connections/"+a.conn+"/projects/"+roadmap.ID, nil, nil); code != http.StatusOK {
		t.Fatalf("alice (owner) taking the project from bob's assistant: %d", code)
	}
	if got := a.call("list_note_tabs", read); got != "DENY not_in_project" {
		t.Fatalf("after the project was taken away: %s", got)
	}
	if code := c.bob.api("PUT", "/api/connections/"+a.conn+"/projects/"+roadmap.ID, nil, nil); code != http.StatusOK {
		t.Fatalf("bob giving it again through the API: %d", code)
	}
	// A viewer reads but creates no project.
	c.setRole(c.bobMember, teamauth.Viewer)
	if code := c.bob.api("POST", "/api/workspaces/"+c.ws+"/projects", map[string]string{"name": "Viewer's"}, nil); code != http.StatusForbidden {
		t.Fatalf("a viewer creating a project: %d, want 403", code)
	}
	if _, page := c.bob.get("/"); strings.Contains(page, "Create project") {
		t.Fatal("a viewer's page offers Create project")
	}
	c.setRole(c.bobMember, teamauth.Editor)

	if code, _, _ := c.bob.form("/web/connections/"+a.conn+"/revoke", url.Values{}, c.lb.URL); code != http.StatusSeeOther {
		t.Fatalf("bob's Revoke form: %d", code)
	}
	if got := a.call("list_note_tabs", read); got != "DENY connection_revoked" {
		t.Fatalf("after Revoke: %s", got)
	}
	if code := c.bob.api("PUT", "/api/connections/"+a.conn+"/projects/"+roadmap.ID, nil, nil); code != http.StatusConflict {
		t.Fatalf("giving a revoked connection a project: %d, want 409", code)
	}
}

func hasProject(ps []notes.Project, name string) bool {
	for _, p := range ps {
		if p.Name == name {
			return true
		}
	}
	return false
}

// form posts a page's form as a browser on origin does; it returns the
// status, where it sends the browser, and the body.
func (b *browser) form(path string, vals url.Values, origin string) (int, string, string) {
	t := b.c.t
	t.Helper()
	req, _ := http.NewRequest("POST", b.c.lb.URL+path, strings.NewReader(vals.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	resp, err := b.cl.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(body)
}

// get opens a page of the server.
func (b *browser) get(path string) (int, string) {
	t := b.c.t
	t.Helper()
	resp, err := b.cl.Get(b.c.lb.URL + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
