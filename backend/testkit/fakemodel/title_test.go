package fakemodel

import (
	"strings"
	"testing"
)

// text joins the text deltas of a streamed Anthropic answer.
func text(evs []event) string {
	var b strings.Builder
	for _, e := range evs {
		if d, ok := e.data["delta"].(map[string]any); ok && d["type"] == "text_delta" {
			b.WriteString(d["text"].(string))
		}
	}
	return b.String()
}

// A titling request (the Titling role's prompt, no tools: chat mode) is
// answered from the title script or the default title, and the
// conversation's scripted turns stay for the conversation, in order,
// whenever the titling request arrives.
func TestTitlingRequestsKeepTheConversationsScript(t *testing.T) {
	titleBody := `{"model":"m","stream":true,"system":"Reply with a ` + TitleMarker + ` for the conversation.","messages":[{"role":"user","content":"User: hi"}]}`
	tests := []struct {
		name   string
		titles []Turn
		want   []string // answers to: main, title, main, title
	}{
		{"no title scripted", nil, []string{"first", DefaultTitle, "second", DefaultTitle}},
		{"a title scripted", []Turn{Text("Zebra word")}, []string{"first", "Zebra word", "second", DefaultTitle}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, Text("first"), Text("second"))
			s.PushTitle(tc.titles...)
			var got []string
			for _, body := range []string{mainBody, titleBody, mainBody, titleBody} {
				got = append(got, text(post(t, s.URL+"/v1/messages", body)))
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("answers %q, want %q", got, tc.want)
			}
			if n, tn := len(s.MainRequests()), len(s.TitleRequests()); n != 2 || tn != 2 || s.Used() != 2 {
				t.Fatalf("%d main requests, %d titling requests, %d turns used", n, tn, s.Used())
			}
		})
	}
}

// Reset drops titles pushed and never asked for, like scripted turns.
func TestResetDropsUnusedTitles(t *testing.T) {
	s := Start(t)
	s.PushTitle(Text("Left over"))
	s.Reset()
	body := `{"model":"m","stream":true,"system":"` + TitleMarker + `","messages":[{"role":"user","content":"x"}]}`
	if got := text(post(t, s.URL+"/v1/messages", body)); got != DefaultTitle {
		t.Fatalf("after Reset the title is %q", got)
	}
}
