package usage

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/usage/usagetest"
)

// The full ids the model pickers offer are the ones the person's Claude
// Code sessions ran, the most recent first, each once.
func TestClaudeModelsMostRecentFirst(t *testing.T) {
	home := t.TempDir()
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	p := usagetest.ClaudeSession(home, "-work-shop", "s1")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	var lines []byte
	for _, r := range []usagetest.Request{
		{At: at("2026-11-28T09:00:00Z"), MsgID: "m1", ReqID: "r1", Model: "claude-opus-4-1-20250805", In: 1},
		{At: at("2026-11-30T09:00:00Z"), MsgID: "m2", ReqID: "r2", Model: "claude-sonnet-4-5-20250929", In: 1},
		{At: at("2026-11-29T09:00:00Z"), MsgID: "m3", ReqID: "r3", Model: "claude-opus-4-1-20250805", In: 1},
	} {
		lines = append(lines, usagetest.ClaudeLine("s1", r)...)
	}
	if err := os.WriteFile(p, lines, 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Home: home})
	got := s.ClaudeModels()
	if want := []string{"claude-sonnet-4-5-20250929", "claude-opus-4-1-20250805"}; !slices.Equal(got, want) {
		t.Fatalf("models %q, want %q", got, want)
	}
}
