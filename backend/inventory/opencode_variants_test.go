package inventory

import (
	"context"
	"path/filepath"
	"testing"
)

// OpenCode stores shaped the way older versions wrote them.

// TestOpenCodeProjectStore reads the per-project layout OpenCode used before
// its global storage folder: project/<project>/storage/session/info/<id>.json,
// messages under storage/session/message/<session>/ (the folder is only in
// the assistant messages' path) and parts under
// storage/session/part/<session>/<message>/.
func TestOpenCodeProjectStore(t *testing.T) {
	home := t.TempDir()
	folder := t.TempDir()
	st := filepath.Join(home, ".local", "share", "opencode", "project", "-Users-ana-code-shop", "storage", "session")
	write(t, filepath.Join(st, "info", "ses_7a1.json"), `{"id":"ses_7a1","version":"0.3.58","title":"Fix the checkout total","time":{"created":1751000000000,"updated":1751000100000}}`)
	write(t, filepath.Join(st, "info", "ses_7a2.json"), `{"id":"ses_7a2","parentID":"ses_7a1","version":"0.3.58","title":"Sub-agent","time":{"created":1751000000000,"updated":1751000100000}}`)
	write(t, filepath.Join(st, "message", "ses_7a1", "msg_1.json"), `{"id":"msg_1","role":"user","sessionID":"ses_7a1","time":{"created":1751000000001}}`)
	write(t, filepath.Join(st, "message", "ses_7a1", "msg_2.json"), `{"id":"msg_2","role":"assistant","sessionID":"ses_7a1","modelID":"claude-sonnet-4","providerID":"anthropic","path":{"cwd":"`+folder+`","root":"`+folder+`"},"time":{"created":1751000000002}}`)
	write(t, filepath.Join(st, "part", "ses_7a1", "msg_1", "prt_1.json"), `{"id":"prt_1","messageID":"msg_1","sessionID":"ses_7a1","type":"text","text":"why is the total off by one?"}`)
	write(t, filepath.Join(st, "part", "ses_7a1", "msg_2", "prt_2.json"), `{"id":"prt_2","messageID":"msg_2","sessionID":"ses_7a1","type":"tool","tool":"read","callID":"c1","state":{"status":"completed","input":{"filePath":"cart.go"},"output":"package cart"}}`)
	write(t, filepath.Join(st, "part", "ses_7a1", "msg_2", "prt_3.json"), `{"id":"prt_3","messageID":"msg_2","sessionID":"ses_7a1","type":"text","text":"Rounding."}`)
	// An even older message with its parts inline and the folder under
	// metadata.assistant.path.
	write(t, filepath.Join(st, "info", "ses_0b1.json"), `{"id":"ses_0b1","version":"0.1.120","title":"Inline parts","time":{"created":1750000000000,"updated":1750000100000}}`)
	write(t, filepath.Join(st, "message", "ses_0b1", "msg_a.json"), `{"id":"msg_a","role":"user","parts":[{"type":"text","text":"hello"}],"metadata":{"sessionID":"ses_0b1","time":{"created":1}}}`)
	write(t, filepath.Join(st, "message", "ses_0b1", "msg_b.json"), `{"id":"msg_b","role":"assistant","parts":[{"type":"text","text":"hi there"}],"metadata":{"sessionID":"ses_0b1","assistant":{"modelID":"m","path":{"cwd":"`+folder+`","root":"`+folder+`"}}}}`)
	svc := newTestService(t, home, nil, &fakeRunner{branch: "main"})
	refresh(t, svc)
	for _, c := range []struct{ key, title string }{
		{"opencode:ses_7a1", "Fix the checkout total"},
		{"opencode:ses_0b1", "Inline parts"},
	} {
		s := find(t, svc, c.key)
		if s.Title != c.title || s.Folder != folder || s.UpdatedMs == 0 {
			t.Fatalf("%s: %+v, want title %q folder %s", c.key, s, c.title, folder)
		}
	}
	if _, err := svc.Find("opencode:ses_7a2"); err == nil {
		t.Error("a child (sub-agent) session was listed")
	}
	p, err := svc.Transcript(context.Background(), "opencode:ses_7a1", 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, p.Rows, []Row{{Kind: RowUser, Text: "why is the total off by one?"}, {Kind: RowToolCall, Name: "read"}, {Kind: RowToolResult, Text: "package cart"}, {Kind: RowAssistant, Text: "Rounding."}})
	p, err = svc.Transcript(context.Background(), "opencode:ses_0b1", 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, p.Rows, []Row{{Kind: RowUser, Text: "hello"}, {Kind: RowAssistant, Text: "hi there"}})
	pl, err := svc.PlanResume(context.Background(), "opencode:ses_7a1", PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pl.Argv; len(got) != 3 || got[0] != "opencode" || got[2] != "ses_7a1" {
		t.Fatalf("plan argv %v", got)
	}
}

// checkRows compares kinds, tool names and (when given) texts.
func checkRows(t *testing.T, got, want []Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("rows %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Kind != w.Kind || g.Name != w.Name || (w.Text != "" && g.Text != w.Text) {
			t.Fatalf("row %d = %+v, want %+v (all %+v)", i, g, w, got)
		}
	}
}
