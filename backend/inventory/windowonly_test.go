package inventory

import (
	"errors"
	"strings"
	"testing"
)

// The desktop apps' sessions say what stays in the app's window, by name,
// in the detail pane and in the refusal; the CLIs' sessions say nothing.
func TestStaysInAppNamesTheWindowFeatures(t *testing.T) {
	cases := []struct {
		app  AppID
		want []string
	}{
		{CodexApp, []string{"browser panel", "review screen", "stay in the Codex app"}},
		{ClaudeApp, []string{"connectors", "artifacts", "stay in the Claude app"}},
		{Cursor, []string{"Cursor's editor stays in Cursor", "open it in Cursor"}},
		{CodexCLI, nil},
		{ClaudeCode, nil},
	}
	for _, c := range cases {
		t.Run(string(c.app), func(t *testing.T) {
			got := StaysInApp(c.app)
			if c.want == nil && got != "" {
				t.Fatalf("a CLI's session keeps nothing in a window, got %q", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q does not say %q", got, w)
				}
			}
		})
	}
}

func TestCursorRefusalNamesTheEditor(t *testing.T) {
	_, err := planFor(t, Session{App: Cursor, ID: "c0mp0ser"}, PlanOptions{}, &fakeRunner{})
	if !errors.Is(err, ErrNotResumable) {
		t.Fatalf("want ErrNotResumable, got %v", err)
	}
	if msg := explainPlanError(err).Error(); !strings.Contains(msg, "Cursor's editor stays in Cursor") {
		t.Fatalf("the refusal should name what stays in Cursor: %q", msg)
	}
	// A Codex app session still resumes, and its detail says what does not come over.
	pl, err := planFor(t, Session{App: CodexApp, ID: "019a2f1c-7d0e-7b31-9c4e-5a6b7c8d9e0f"}, PlanOptions{}, &fakeRunner{})
	if err != nil || len(pl.Argv) == 0 || pl.Argv[0] != "codex" {
		t.Fatalf("a Codex app session resumes with codex: %v %v", pl.Argv, err)
	}
}
