package acp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

var _ sdk.Client = (*client)(nil)

// RequestPermission is the agent asking the person in the pane. It is
// reported before the question shows and again once answered: between the
// two the pane needs the user.
func (c *client) RequestPermission(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	ask := &permAsk{id: c.nextID("p"), req: req, reply: make(chan sdk.RequestPermissionOutcome, 1)}
	c.report("agent", "request", "session/request_permission", ask.id, permTitle(req))
	if len(req.Options) == 0 {
		c.answer(ask, cancelled)
		return sdk.RequestPermissionResponse{Outcome: <-ask.reply}, nil
	}
	select {
	case c.perms <- ask:
	case <-ctx.Done():
		c.answer(ask, cancelled) // the agent withdrew it (the turn was cancelled)
	}
	select {
	case out := <-ask.reply:
		return sdk.RequestPermissionResponse{Outcome: out}, nil
	case <-ctx.Done():
		c.answer(ask, cancelled)
		return sdk.RequestPermissionResponse{Outcome: cancelled}, nil
	}
}

// SessionUpdate shows the turn as it streams: the answer's text, and one
// line per tool call and per status change.
func (c *client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	u := n.Update
	switch {
	case u.AgentMessageChunk != nil:
		if t := u.AgentMessageChunk.Content.Text; t != nil {
			c.printf("%s", t.Text)
		}
	case u.ToolCall != nil:
		c.outMu.Lock()
		c.tools[u.ToolCall.ToolCallId] = u.ToolCall.Title
		c.outMu.Unlock()
		c.printf("\n• %s\n", u.ToolCall.Title)
	case u.ToolCallUpdate != nil:
		if u.ToolCallUpdate.Status == nil {
			return nil
		}
		c.outMu.Lock()
		title := c.tools[u.ToolCallUpdate.ToolCallId]
		if u.ToolCallUpdate.Title != nil && *u.ToolCallUpdate.Title != "" {
			title = *u.ToolCallUpdate.Title
			c.tools[u.ToolCallUpdate.ToolCallId] = title
		}
		c.outMu.Unlock()
		switch *u.ToolCallUpdate.Status {
		case sdk.ToolCallStatusCompleted:
			c.printf("  done: %s\n", title)
		case sdk.ToolCallStatusFailed:
			c.printf("  failed: %s\n", title)
		}
	}
	return nil
}

// errNotOffered: the client announces no file system or terminal
// capability, so an agent asking for one breaks the protocol.
var errNotOffered = errors.New("osfoundry's ACP client offers no file system or terminal access; the agent uses its own tools")

func (c *client) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errNotOffered
}

func (c *client) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errNotOffered
}

func (c *client) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errNotOffered
}

func (c *client) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errNotOffered
}

func (c *client) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errNotOffered
}

func (c *client) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errNotOffered
}

func (c *client) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errNotOffered
}

// lineReader reads the person's input one line at a time (the pane's
// terminal is in line mode, so a line arrives when Enter is pressed).
type lineReader struct{ r *bufio.Reader }

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: bufio.NewReader(r)} }

func (l *lineReader) next() (string, error) {
	s, err := l.r.ReadString('\n')
	if err != nil && s == "" {
		return "", err
	}
	return strings.TrimRight(s, "\r\n"), nil
}
