package teamweb

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// The page is parsed at its first use: each of its shapes must parse and
// draw, with what a person typed escaped.
func TestHomePageDrawsEachShape(t *testing.T) {
	for name, d := range map[string]pageData{
		"signed out": {SignIn: "/login"},
		"error":      {Error: "the database is down <now>"},
		"a workspace": {Person: teamauth.Person{ID: "p1", Email: "ana@example.com"}, MCP: "https://team.example/mcp",
			Workspaces: []workspaceView{{Workspace: teamauth.Workspace{ID: "w1", Name: "<b>Ops</b>", Role: teamauth.Owner}, CanWrite: true, IsOwner: true}}},
	} {
		var b strings.Builder
		if err := homePage().Execute(&b, d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "a workspace" && !strings.Contains(b.String(), "&lt;b&gt;Ops") {
			t.Fatalf("the workspace name is not on the page:\n%s", b.String())
		}
		if strings.Contains(b.String(), "<b>Ops</b>") || strings.Contains(b.String(), "<now>") {
			t.Fatalf("%s: text reached the page unescaped:\n%s", name, b.String())
		}
	}
}
