package agentbin

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRootHoldsThisModule(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "backend", "testkit", "agentbin", "agentbin.go")); err != nil {
		t.Fatalf("root %s does not hold this package: %v", root, err)
	}
}

func TestFind(t *testing.T) {
	if _, ok := Find("no-such-agent-binary"); ok {
		t.Fatal("Find reported a binary that does not exist")
	}
	p, ok := Find("claude")
	if !ok {
		t.Skip(SkipMessage("claude"))
	}
	if filepath.Base(p) != "claude" {
		t.Fatalf("Find(claude) = %s", p)
	}
	v, err := Version(Packages["claude"])
	if err != nil || v == "" {
		t.Fatalf("Version: %q, %v", v, err)
	}
}
