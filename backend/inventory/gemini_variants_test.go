package inventory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"testing"
)

// Gemini CLI stores shaped the way older and newer versions wrote them.

func sha(p string) string { s := sha256.Sum256([]byte(p)); return hex.EncodeToString(s[:]) }

// TestGeminiStoreVariants: GEMINI_CLI_HOME moves the store; versions before
// projects.json name a project folder only by the SHA-256 of its path (the
// folder is found from the absolute paths the chat's tools used); some
// versions record the session-context preamble as the first user message;
// versions before chat recording (mid 2025) kept only logs.json, the user's
// prompts.
func TestGeminiStoreVariants(t *testing.T) {
	home := t.TempDir()
	folder := filepath.Join(t.TempDir(), "shop")
	custom := t.TempDir()
	g := filepath.Join(custom, ".gemini")
	hash := sha(folder)
	write(t, filepath.Join(g, "tmp", hash, "chats", "session-2025-08-20T09-00-a1b2c3d4.json"), `{"sessionId":"a1b2c3d4-0000-4000-8000-000000000001","projectHash":"`+hash+`","startTime":"2025-08-20T09:00:00.000Z","lastUpdated":"2025-08-20T09:05:00.000Z","messages":[
{"id":"m0","timestamp":"2025-08-20T09:00:00.000Z","type":"user","content":"This is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Wednesday, August 20, 2025.\nMy operating system is: linux\nI'm currently working in the directory: `+folder+`"},
{"id":"m1","timestamp":"2025-08-20T09:00:01.000Z","type":"user","content":"Why is the cart total off?"},
{"id":"m2","timestamp":"2025-08-20T09:00:02.000Z","type":"gemini","content":"Let me look.","model":"gemini-2.5-pro","thoughts":[{"subject":"Reading","description":"the cart","timestamp":"2025-08-20T09:00:02.000Z"}],"toolCalls":[{"id":"read_file-1","name":"read_file","args":{"absolute_path":"`+folder+`/src/cart.go"},"status":"success","timestamp":"2025-08-20T09:00:02.000Z","result":[{"functionResponse":{"id":"read_file-1","name":"read_file","response":{"output":"package cart"}}}]}],"tokens":{"input":10,"output":5,"cached":0,"thoughts":0,"tool":0,"total":15}}]}`)
	// Logs only, in a project folder named by hash with no chats.
	old := filepath.Join(t.TempDir(), "old")
	write(t, filepath.Join(old, "README.md"), "# old\n")
	write(t, filepath.Join(g, "tmp", sha(old), "logs.json"), `[
  {"sessionId": "0ld5e551-0000-4000-8000-000000000002", "messageId": 0, "type": "user", "message": "Summarise `+old+`/README.md", "timestamp": "2025-07-01T10:00:00.000Z"},
  {"sessionId": "0ld5e551-0000-4000-8000-000000000002", "messageId": 1, "type": "user", "message": "Now the tests", "timestamp": "2025-07-01T10:02:00.000Z"}
]`)
	// A logs.json beside a chat file: the chat's session is listed once.
	write(t, filepath.Join(g, "tmp", hash, "logs.json"), `[{"sessionId":"a1b2c3d4-0000-4000-8000-000000000001","messageId":0,"type":"user","message":"Why is the cart total off?","timestamp":"2025-08-20T09:00:01.000Z"}]`)
	svc := newEnvService(t, home, map[string]string{"GEMINI_CLI_HOME": custom})
	refresh(t, svc)
	s := find(t, svc, "gemini-cli:a1b2c3d4-0000-4000-8000-000000000001")
	if s.Title != "Why is the cart total off?" || s.Folder != folder || s.Model != "gemini-2.5-pro" {
		t.Fatalf("chat: %+v", s)
	}
	if s.Path == "" || filepath.Ext(s.Path) != ".json" {
		t.Fatalf("the chat file is the session's transcript, got %s", s.Path)
	}
	o := find(t, svc, "gemini-cli:0ld5e551-0000-4000-8000-000000000002")
	if o.Title != "Summarise "+old+"/README.md" || o.Folder != old {
		t.Fatalf("logs-only: %+v", o)
	}
	p, err := svc.Transcript(context.Background(), o.Key, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, p.Rows, []Row{{Kind: RowUser, Text: "Summarise " + old + "/README.md"}, {Kind: RowUser, Text: "Now the tests"}})
	if _, err := svc.PlanResume(context.Background(), o.Key, PlanOptions{}); !errors.Is(err, ErrNotResumable) {
		t.Fatalf("a session with no chat file cannot be resumed by id: %v", err)
	}
	if n := len(svc.List("", GeminiCLI)); n != 2 {
		t.Fatalf("%d Gemini sessions, want 2", n)
	}
}

func TestHashedFolder(t *testing.T) {
	home := "/home/ana"
	for _, c := range []struct {
		name, data, want string
	}{
		{sha(home), ``, home},
		{sha("/srv/app"), `{"args":{"absolute_path":"/srv/app/cmd/main.go"}}`, "/srv/app"},
		{sha("/srv/app"), `see https://example.com/srv/app then @/srv/app/README.md`, "/srv/app"},
		{sha("/srv/other"), `{"args":{"absolute_path":"/srv/app/cmd/main.go"}}`, ""},
		{"not-a-hash", `"/srv/app"`, ""},
	} {
		if got := hashedFolder(c.name, []byte(c.data), home); got != c.want {
			t.Errorf("hashedFolder(%.8s…, %q) = %q, want %q", c.name, c.data, got, c.want)
		}
	}
}

// TestGeminiSavedChats lists "/chat save" checkpoints: a bare Content list
// (older versions) and {"history": …} with a URL-encoded tag (newer).
func TestGeminiSavedChats(t *testing.T) {
	home := t.TempDir()
	folder := filepath.Join(t.TempDir(), "shop")
	write(t, filepath.Join(folder, "go.mod"), "module shop\n")
	g := filepath.Join(home, ".gemini", "tmp", sha(folder))
	preamble := `{"role":"user","parts":[{"text":"This is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Tuesday, July 1, 2025.\nMy operating system is: darwin\nI'm currently working in the directory: ` + folder + `\nHere is the folder structure of the current working directories:\n"}]},{"role":"model","parts":[{"text":"Got it. Thanks for the context!"}]}`
	write(t, filepath.Join(g, "checkpoint-cart.json"), `[`+preamble+`,
{"role":"user","parts":[{"text":"Why is the cart total off?"}]},
{"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"absolute_path":"/x/cart.go"}}}]},
{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"package cart"}}}]},
{"role":"model","parts":[{"text":"Rounding."}]}]`)
	write(t, filepath.Join(g, "checkpoint-before%20refactor.json"), `{"history":[`+preamble+`,{"role":"user","parts":[{"text":"Plan the refactor"}]}],"authType":"oauth-personal"}`)
	svc := newTestService(t, home, nil, &fakeRunner{branch: "main"})
	refresh(t, svc)
	titles := map[string]Session{}
	for _, s := range svc.List("", GeminiCLI) {
		titles[s.Title] = s
	}
	s, ok := titles["Saved chat “cart”: Why is the cart total off?"]
	if !ok || s.Folder != folder {
		t.Fatalf("saved chats %+v", titles)
	}
	if r, ok := titles["Saved chat “before refactor”: Plan the refactor"]; !ok || r.Folder != folder {
		t.Fatalf("saved chats %+v", titles)
	}
	p, err := svc.Transcript(context.Background(), s.Key, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Rows); n != 6 || p.Rows[3].Kind != RowToolCall || p.Rows[3].Name != "read_file" || p.Rows[4].Text == "" || p.Rows[5].Text != "Rounding." {
		t.Fatalf("rows %+v", p.Rows)
	}
	if _, err := svc.PlanResume(context.Background(), s.Key, PlanOptions{}); !errors.Is(err, ErrNotResumable) {
		t.Fatalf("a saved chat is resumed inside the CLI, not by id: %v", err)
	}
}
