package teamsessions

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// The page is parsed at its first use: each of its shapes must parse and
// draw, with what an agent printed escaped.
func TestNeedsYouPageDrawsEachShape(t *testing.T) {
	waits := pageSession{Session: Session{Kind: "terminal", Title: "fix <tests>", State: "blocked", Line: "Allow <rm -rf>?", ID: "s1", Since: 1, Choices: 3},
		Device: "laptop", DeviceID: "d1", Answers: true, Waited: "3 min", Numbers: []int{1, 2, 3}}
	chat := waits
	chat.Kind, chat.Asks, chat.Answers = "chat", "question", false
	for name, v := range map[string]pageView{
		"error": {Error: "the database is down <now>"},
		"waiting": {Person: teamauth.Person{ID: "p1", Email: "ana@example.com"}, Devices: 1,
			Desktops: []Device{{Name: "laptop"}}, NeedsYou: []pageSession{waits, chat}, Running: []pageSession{waits}, Done: []pageSession{waits}},
	} {
		var b strings.Builder
		if err := needsYouPage().Execute(&b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		page := b.String()
		if name == "waiting" && (!strings.Contains(page, "fix &lt;tests&gt;") || !strings.Contains(page, "Allow &lt;rm -rf&gt;?")) {
			t.Fatalf("the waiting session is not on the page:\n%s", page)
		}
		for _, raw := range []string{"<tests>", "<rm -rf>", "<now>"} {
			if strings.Contains(page, raw) {
				t.Fatalf("%s: %q reached the page unescaped", name, raw)
			}
		}
	}
}
