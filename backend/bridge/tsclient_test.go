package bridge

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

// tsSDK returns the installed TypeScript SDK folder or skips the test.
func tsSDK(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; install Node.js 20+ to run the TypeScript client test")
	}
	dir, _ = filepath.Abs(filepath.Join("..", "..", "build", "node-mcp", "node_modules", "@modelcontextprotocol", "sdk"))
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		t.Skip("@modelcontextprotocol/sdk is not installed; run build/scripts/node-mcp.sh")
	}
	return node, dir
}

func TestTypeScriptClient(t *testing.T) {
	node, sdk := tsSDK(t)
	r := newRig(t)
	b := r.start(t, "memory_search", "code_search")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "tsclient.mjs"), sdk, b.URL(), b.Token())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, stderr.String())
	}
	var got struct {
		ProtocolVersion string   `json:"protocolVersion"`
		Tools           []string `json:"tools"`
		Memory          struct {
			IsError bool   `json:"isError"`
			Text    string `json:"text"`
		} `json:"memory"`
		Refused *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"refused"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("TypeScript client output %q: %v", out, err)
	}
	t.Logf("TypeScript client negotiated %s", got.ProtocolVersion)
	if !slices.Contains(ProtocolVersions, got.ProtocolVersion) {
		t.Fatalf("negotiated %q, not one of %v", got.ProtocolVersion, ProtocolVersions)
	}
	if !slices.Equal(got.Tools, []string{"code_search", "memory_search"}) {
		t.Fatalf("tools = %v", got.Tools)
	}
	if got.Memory.IsError || !strings.Contains(got.Memory.Text, "Release checklist") || strings.Contains(got.Memory.Text, "secrets") {
		t.Fatalf("memory_search = %+v, want the bound workspace's note", got.Memory)
	}
	if got.Refused == nil || got.Refused.Code != -32601 || !strings.Contains(got.Refused.Message, "tool 'secret_tool' is not available to this agent") {
		t.Fatalf("refused = %+v, want -32601 with the message", got.Refused)
	}
	if r.forbidden.Load() != 0 {
		t.Fatal("secret_tool ran")
	}
	if es := r.entries("secret_tool"); len(es) != 1 || es[0].Decision != tools.DecisionNotAvailable {
		t.Fatalf("secret_tool audit = %+v", es)
	}
}
