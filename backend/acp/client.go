// Package acp is the app's own small Agent Client Protocol client for a
// terminal pane: `osfoundry acp [-- ADAPTER ARGS…]` runs an ACP agent such
// as claude-agent-acp as its child, speaks ACP with it over the child's
// stdio (through github.com/coder/acp-go-sdk, not a hand-written protocol),
// shows each turn in the pane as plain text, and asks the person in the pane
// to answer the agent's permission requests.
//
// Every protocol step that says what the agent is doing (a prompt sent and
// answered, a permission asked and answered) is reported into the pane's
// detection channel (backend/panehook), where the agent's rules file maps it
// to a state: an open session/request_permission is the fact that the pane
// needs the user. The client never answers a permission on the user's
// behalf, offers the agent no file system or terminal of its own (the
// adapter uses Claude Code's tools, under Claude Code's own checks), and
// reports no message content beyond a permission's title.
package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/osfoundry/desktop/backend/detect"
)

// Options configures one client run.
type Options struct {
	Argv []string // the adapter command, e.g. ["claude-agent-acp"]
	// Model is the model to ask the agent for ("": its own), by id or name
	// among those its session offers (model.go).
	Model string
	Dir   string   // the session's working folder (absolute)
	Env   []string // the adapter's environment; nil: this process's
	In    io.Reader
	Out   io.Writer
	// Report receives each protocol step, in order; nil: none. It is called
	// synchronously so a pane is marked blocked before the prompt shows.
	Report func(detect.ACPEvent)
	// Interrupt carries Ctrl-C: it declines an open permission request and
	// cancels the turn, or leaves when no turn runs. nil: none.
	Interrupt <-chan struct{}
}

// client is one run: the adapter process, the connection and the pane UI.
type client struct {
	o       Options
	adapter string
	conn    *sdk.ClientSideConnection
	models  *sdk.SessionModelState // what the session offers; nil: no choice

	outMu sync.Mutex
	tools map[sdk.ToolCallId]string // titles, for updates that omit them
	// midLine: the last output did not end a line; inTurn: a turn runs and
	// the adapter's log lines are held (adapterlog.go). Guarded by outMu.
	midLine, inTurn bool
	held            []string
	dropped         int

	seqMu sync.Mutex
	seq   int

	reportMu sync.Mutex // one report at a time, in order

	perms chan *permAsk // permission requests waiting for the user
}

type permAsk struct {
	id    string
	req   sdk.RequestPermissionRequest
	reply chan sdk.RequestPermissionOutcome // buffered: one answer
	once  sync.Once
}

var cancelled = sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}

// answer reports the answer, then hands it to the waiting request: reported
// in this order, on the loop's goroutine, the pane leaves Needs you before
// the agent goes on and before the turn's end can be reported.
func (c *client) answer(a *permAsk, out sdk.RequestPermissionOutcome) {
	a.once.Do(func() {
		c.report("client", "response", "session/request_permission", a.id, "")
		a.reply <- out
	})
}

// decline refuses the open permission request and cancels the turn. The
// notice is printed first: the adapter's reply to the refusal then follows
// it instead of being cut in two by it. session/cancel goes before the
// cancelled answer, the order ACP asks of a client.
func (c *client) decline(ctx context.Context, sid sdk.SessionId, a *permAsk, lead string) {
	c.printf("%sDeclined; cancelling the turn.\n", lead)
	_ = c.conn.Cancel(ctx, sdk.CancelNotification{SessionId: sid})
	c.answer(a, cancelled)
}

// Run starts the adapter, opens a session in o.Dir and runs turns typed on
// o.In until it ends (EOF, /quit) or ctx is cancelled.
func Run(ctx context.Context, o Options) error {
	if len(o.Argv) == 0 {
		return errors.New("no ACP agent to run: name one, e.g. `osfoundry acp -- claude-agent-acp`")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, o.Argv[0], o.Argv[1:]...)
	cmd.Dir, cmd.Env = o.Dir, o.Env
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", o.Argv[0], err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", o.Argv[0], err)
	}
	// The adapter's own log lines go to the pane, never inside an answer.
	c := &client{o: o, adapter: filepath.Base(o.Argv[0]), tools: map[sdk.ToolCallId]string{}, perms: make(chan *permAsk)}
	cmd.Stderr = &adapterLog{c: c}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("%s not found on PATH: install it (npm install -g @zed-industries/claude-agent-acp) or name the adapter after --", o.Argv[0])
		}
		return fmt.Errorf("starting %s: %w", o.Argv[0], err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		stdin.Close() // the adapter ends when its input closes
		cancel()
		<-exited
	}()

	c.conn = sdk.NewClientSideConnection(c, stdin, stdout)
	err = c.session(ctx, exited)
	c.endTurn("") // log lines held by a turn the adapter ended by exiting
	return err
}

func (c *client) printf(format string, args ...any) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	c.writeLocked(fmt.Sprintf(format, args...))
}

func (c *client) nextID(prefix string) string {
	c.seqMu.Lock()
	defer c.seqMu.Unlock()
	c.seq++
	return prefix + strconv.Itoa(c.seq)
}

func (c *client) report(from, typ, method, id, title string) {
	c.reportMu.Lock()
	defer c.reportMu.Unlock()
	if c.o.Report != nil {
		c.o.Report(detect.ACPEvent{Adapter: c.adapter, From: from, Type: typ, Method: method, ID: id, Title: title})
	}
}

// session initializes the connection, opens a session and runs the turns.
func (c *client) session(ctx context.Context, exited <-chan error) error {
	c.report("client", "request", "initialize", c.nextID("i"), "")
	init, err := c.conn.Initialize(ctx, sdk.InitializeRequest{
		ProtocolVersion:    sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{},
		ClientInfo:         &sdk.Implementation{Name: "osfoundry", Version: "1"},
	})
	if err != nil {
		return fmt.Errorf("initializing the ACP connection with %s: %w", c.adapter, err)
	}
	sess, err := c.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: c.o.Dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		return fmt.Errorf("opening a session with %s: %w", c.adapter, err)
	}
	name := c.adapter
	if init.AgentInfo != nil && init.AgentInfo.Name != "" {
		name = init.AgentInfo.Name + " " + init.AgentInfo.Version
	}
	c.printf("Connected to %s over ACP in %s.\nType a task and press Enter; /cancel or Ctrl-C stops a turn, /model lists the models, /quit leaves.\n", strings.TrimSpace(name), c.o.Dir)
	c.models = sess.Models
	if c.o.Model != "" {
		c.setModel(ctx, sess.SessionId, c.o.Model)
	}

	lines := make(chan string)
	go func() {
		defer close(lines)
		buf := newLineReader(c.o.In)
		for {
			l, err := buf.next()
			if err != nil {
				return
			}
			select {
			case lines <- l:
			case <-ctx.Done():
				return
			}
		}
	}()
	return c.loop(ctx, sess.SessionId, lines, exited)
}

type turnResult struct {
	resp sdk.PromptResponse
	err  error
}

// loop reads the person's lines: a task starts a turn, a number answers
// the open permission request; it also ends when the adapter exits.
func (c *client) loop(ctx context.Context, sid sdk.SessionId, lines <-chan string, exited <-chan error) error {
	var turn chan turnResult
	var ask *permAsk
	var turnID string
	c.printf("> ")
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-exited:
			if err != nil {
				return fmt.Errorf("%s exited: %w", c.adapter, err)
			}
			return fmt.Errorf("%s exited", c.adapter)
		case a := <-c.perms:
			ask = a
			c.showPermission(a.req)
		case <-c.o.Interrupt:
			switch {
			case ask != nil:
				c.decline(ctx, sid, ask, "\n")
				ask = nil
			case turn != nil:
				_ = c.conn.Cancel(ctx, sdk.CancelNotification{SessionId: sid})
				c.printf("\nCancelling the turn…\n")
			default:
				c.printf("\n")
				return nil
			}
		case r := <-turn:
			turn = nil
			c.report("agent", "response", "session/prompt", turnID, "")
			if r.err != nil {
				c.endTurn(fmt.Sprintf("\nThe turn failed: %v\n> ", r.err))
			} else {
				c.endTurn(fmt.Sprintf("\n[turn ended: %s]\n> ", r.resp.StopReason))
			}
		case l, ok := <-lines:
			if !ok {
				if ask != nil {
					c.answer(ask, cancelled)
				}
				return nil
			}
			l = strings.TrimSpace(l)
			switch {
			case l == "/quit":
				if ask != nil {
					c.answer(ask, cancelled)
				}
				return nil
			case l == "/cancel" && ask != nil:
				c.decline(ctx, sid, ask, "")
				ask = nil
			case ask != nil:
				if out, ok := choose(ask.req.Options, l); ok {
					c.answer(ask, out)
					ask = nil
				} else {
					c.printf("Type a number from 1 to %d and press Enter.\n", len(ask.req.Options))
				}
			case l == "/cancel":
				if turn != nil {
					_ = c.conn.Cancel(ctx, sdk.CancelNotification{SessionId: sid})
				}
			case turn != nil:
				c.printf("The agent is still working; /cancel stops the turn.\n")
			case l == "/model":
				c.listModels()
				c.printf("> ")
			case strings.HasPrefix(l, "/model "):
				c.setModel(ctx, sid, strings.TrimSpace(strings.TrimPrefix(l, "/model ")))
				c.printf("> ")
			case l == "":
				c.printf("> ")
			default:
				turnID = c.nextID("t")
				c.report("client", "request", "session/prompt", turnID, "")
				turn = make(chan turnResult, 1)
				c.startTurn()
				go func(ch chan turnResult) {
					resp, err := c.conn.Prompt(ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock(l)}})
					ch <- turnResult{resp, err}
				}(turn)
			}
		}
	}
}

// choose maps the person's answer (the option's number) to an outcome.
func choose(opts []sdk.PermissionOption, answer string) (sdk.RequestPermissionOutcome, bool) {
	n, err := strconv.Atoi(answer)
	if err != nil || n < 1 || n > len(opts) {
		return sdk.RequestPermissionOutcome{}, false
	}
	return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: opts[n-1].OptionId}}, true
}

func (c *client) showPermission(req sdk.RequestPermissionRequest) {
	var b strings.Builder
	fmt.Fprintf(&b, "\nPermission needed: %s\n", permTitle(req))
	for i, o := range req.Options {
		fmt.Fprintf(&b, "  %d) %s\n", i+1, o.Name)
	}
	fmt.Fprintf(&b, "Answer with a number: ")
	c.printf("%s", b.String())
}

func permTitle(req sdk.RequestPermissionRequest) string {
	if req.ToolCall.Title != nil && *req.ToolCall.Title != "" {
		return *req.ToolCall.Title
	}
	return string(req.ToolCall.ToolCallId)
}
