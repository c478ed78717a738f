package bridge

import (
	"strings"
	"testing"
)

// The reference article's bridge the bench compares against answers as its article
// shows: the canned memory_search text, -32601 for a name off the list,
// 401 for a wrong token, 202 for a notification.
func TestSeedBridgeAnswersAsItsArticle(t *testing.T) {
	s, err := startSeed()
	if err != nil {
		t.Skip(err)
	}
	defer s.Close()
	good, bad := "Bearer "+s.token, "Bearer "+strings.Repeat("0", 64)
	for _, c := range []struct {
		auth, body string
		status     int
		want       string
	}{
		{good, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"release"}}}`, 200, `"text": "Release checklist`},
		{good, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"execute_command","arguments":{}}}`, 200, `tool 'execute_command' is not available to this agent`},
		{bad, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, 401, "unauthorized"},
		{good, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, ""},
	} {
		if err := newRaw(s.host, c.auth, c.body, c.status, c.want).do(); err != nil {
			t.Errorf("%s: %v", c.body, err)
		}
	}
}
