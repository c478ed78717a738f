package agentcli

import (
	"os"
	"path/filepath"
	"testing"
)

// The start-up log names each CLI's version without running it: from the
// package.json of the npm install its command links into, or from a native
// install's versions/<version> file.
func TestInstalledVersionReadsTheInstallNotTheCLI(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(name, target string) string {
		p := filepath.Join(root, "bin", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Skip("no symlinks here:", err)
		}
		return p
	}
	write("lib/node_modules/@openai/codex/package.json", `{"name":"@openai/codex","version":"0.46.0"}`)
	npm := link("codex", write("lib/node_modules/@openai/codex/bin/codex.js", "#!/usr/bin/env node\n"))
	native := link("claude", write("share/claude/versions/2.0.14", "\x7fELF"))
	unknown := write("opt/other/claude", "#!/bin/sh\n")

	for _, tc := range []struct{ name, bin, want string }{
		{"npm install", npm, "0.46.0"},
		{"native install", native, "2.0.14"},
		{"neither says", unknown, "found"},
		{"missing", filepath.Join(root, "nowhere"), "found"},
	} {
		if got := installedVersion(tc.bin); got != tc.want {
			t.Errorf("%s: installedVersion = %q, want %q", tc.name, got, tc.want)
		}
	}
}
