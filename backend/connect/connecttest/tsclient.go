package connecttest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// ErrNoTSSDK: node or the TypeScript MCP SDK is not installed; tests skip.
var ErrNoTSSDK = errors.New("node or @modelcontextprotocol/sdk is missing (install Node.js 20+ and run build/scripts/node-mcp.sh)")

// FindTSSDK finds node and the TypeScript SDK that build/scripts/node-mcp.sh
// installs under repo/build/node-mcp.
func FindTSSDK(repo string) (node, sdk string, err error) {
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", ErrNoTSSDK
	}
	sdk, err = filepath.Abs(filepath.Join(repo, "build", "node-mcp", "node_modules", "@modelcontextprotocol", "sdk"))
	if err != nil {
		return "", "", fmt.Errorf("finding the TypeScript SDK: %w", err)
	}
	if _, err := os.Stat(filepath.Join(sdk, "package.json")); err != nil {
		return "", "", ErrNoTSSDK
	}
	return node, sdk, nil
}

// TSClient is the official TypeScript MCP client (@modelcontextprotocol/sdk)
// running script (backend/connect/testdata/tsclient.mjs) in a child
// process: discovery, dynamic registration, PKCE, token and refresh are
// the SDK's; this side is its user's browser, approving each consent with
// Workspace and Choice.
type TSClient struct {
	Browser   *Browser
	Workspace string
	Choice    string // "Use pending: <name>", "Keep using: <name>", "Create a new connection"
	// Auths are the authorization URLs the client opened, in order; Iss
	// is the last redirect's iss.
	Auths []string
	Iss   string
	// Logf receives the client's other output lines (nil drops them).
	Logf func(format string, args ...any)
	// Approve, when set, answers a consent page instead of Browser (a
	// browser that must first sign in at the team's provider); it returns
	// the redirect back to the client.
	Approve func(authURL string) (*url.URL, error)

	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr strings.Builder
	mu     sync.Mutex
}

// StartTSClient starts script against the endpoint at resourceURL.
func StartTSClient(ctx context.Context, node, sdk, script, resourceURL string, b *Browser, workspace, choice string) (*TSClient, error) {
	c := &TSClient{Browser: b, Workspace: workspace, Choice: choice}
	c.cmd = exec.CommandContext(ctx, node, script, sdk, resourceURL)
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("starting the TypeScript client: %w", err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("starting the TypeScript client: %w", err)
	}
	c.cmd.Stderr = &c.stderr
	c.out = bufio.NewScanner(stdout)
	c.out.Buffer(make([]byte, 64*1024), 8<<20)
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the TypeScript client: %w", err)
	}
	return c, nil
}

// Send writes one command line and answers the consent pages the client
// opens until its RESULT line, which it returns without the word.
func (c *TSClient) Send(cmd string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := fmt.Fprintln(c.in, cmd); err != nil {
		return "", fmt.Errorf("writing to the TypeScript client: %w", err)
	}
	for c.out.Scan() {
		line := c.out.Text()
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "AUTHORIZE":
			c.Auths = append(c.Auths, rest)
			approve := c.Approve
			if approve == nil {
				approve = func(u string) (*url.URL, error) { return c.Browser.Approve(u, c.Workspace, c.Choice) }
			}
			loc, err := approve(rest)
			if err != nil {
				return "", fmt.Errorf("approving the consent page: %w", err)
			}
			c.Iss = loc.Query().Get("iss")
			if _, err := fmt.Fprintf(c.in, "CODE %s %s\n", loc.Query().Get("code"), c.Iss); err != nil {
				return "", fmt.Errorf("writing to the TypeScript client: %w", err)
			}
		case "RESULT":
			return rest, nil
		default:
			if c.Logf != nil {
				c.Logf("node: %s", line)
			}
		}
	}
	return "", fmt.Errorf("the TypeScript client exited: %v; stderr: %s", c.out.Err(), c.stderr.String())
}

// Call runs one tools/call and returns the script's outcome line ("OK …",
// "DENY <code>", "ERR <status> …").
func (c *TSClient) Call(tool string, args any) (string, error) {
	b, err := json.Marshal(map[string]any{"tool": tool, "args": args})
	if err != nil {
		return "", fmt.Errorf("encoding %s arguments: %w", tool, err)
	}
	return c.Send("CALL " + string(b))
}

// Raw runs one tools/call and returns the result's text and isError.
func (c *TSClient) Raw(tool string, args any) (text string, isError bool, err error) {
	b, err := json.Marshal(map[string]any{"tool": tool, "args": args})
	if err != nil {
		return "", false, fmt.Errorf("encoding %s arguments: %w", tool, err)
	}
	line, err := c.Send("RAW " + string(b))
	if err != nil {
		return "", false, err
	}
	var r struct {
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		return "", false, fmt.Errorf("%s: the client answered %s", tool, line)
	}
	return r.Text, r.IsError, nil
}

// Close ends the client and returns what it wrote to stderr.
func (c *TSClient) Close() string {
	c.in.Close()
	_ = c.cmd.Wait()
	return c.stderr.String()
}
