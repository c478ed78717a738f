package inventory

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// Qwen Code stores shaped the way older and newer versions wrote them.

// TestQwenStoreVariants: $QWEN_HOME ("~/…" expanded) moves the store; the
// JSONL chats of newer versions win over the same session in the older
// Gemini-style tmp/<hash>/ store; versions that recorded no chats kept only
// logs.json; a preamble is never a title.
func TestQwenStoreVariants(t *testing.T) {
	home := t.TempDir()
	folder := filepath.Join(home, "code", "parser")
	write(t, filepath.Join(folder, "go.mod"), "module parser\n")
	q := filepath.Join(home, "alt-qwen")
	write(t, filepath.Join(q, "projects", "-home-code-parser", "chats", "9f1e.jsonl"), jsonl(
		m{"uuid": "1", "parentUuid": nil, "sessionId": "9f1e", "timestamp": "2026-01-04T10:00:00Z", "type": "user", "cwd": folder, "version": "0.6.0", "gitBranch": "main",
			"message": m{"role": "user", "parts": []m{{"text": "This is the Qwen Code. We are setting up the context for our chat."}}}},
		m{"uuid": "2", "parentUuid": "1", "sessionId": "9f1e", "timestamp": "2026-01-04T10:00:01Z", "type": "user", "cwd": folder, "gitBranch": "main",
			"message": m{"role": "user", "parts": []m{{"text": "Port the tokenizer"}}}},
	))
	hash := sha(folder)
	write(t, filepath.Join(q, "tmp", hash, "logs.json"), `[
{"sessionId":"9f1e","messageId":0,"type":"user","message":"Port the tokenizer","timestamp":"2026-01-04T10:00:01Z"},
{"sessionId":"77aa","messageId":0,"type":"user","message":"Explain `+folder+`/lexer.go","timestamp":"2025-08-01T10:00:00Z"}]`)
	svc := newEnvService(t, home, map[string]string{"QWEN_HOME": "~/alt-qwen"})
	refresh(t, svc)
	s := find(t, svc, "qwen-code:9f1e")
	if s.Title != "Port the tokenizer" || s.Folder != folder || filepath.Ext(s.Path) != ".jsonl" {
		t.Fatalf("chat: %+v", s)
	}
	o := find(t, svc, "qwen-code:77aa")
	if o.Title != "Explain "+folder+"/lexer.go" || o.Folder != folder {
		t.Fatalf("logs-only: %+v", o)
	}
	p, err := svc.Transcript(context.Background(), o.Key, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, p.Rows, []Row{{Kind: RowUser, Text: "Explain " + folder + "/lexer.go"}})
	if _, err := svc.PlanResume(context.Background(), o.Key, PlanOptions{}); !errors.Is(err, ErrNotResumable) {
		t.Fatalf("plan of a prompts-only session: %v", err)
	}
	pl, err := svc.PlanResume(context.Background(), s.Key, PlanOptions{})
	if err != nil || len(pl.Argv) != 3 || pl.Argv[0] != "qwen" || pl.Argv[2] != "9f1e" {
		t.Fatalf("plan %v %v", pl.Argv, err)
	}
	if n := len(svc.List("", QwenCode)); n != 2 {
		t.Fatalf("%d Qwen sessions, want 2", n)
	}
}
