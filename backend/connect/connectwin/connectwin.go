// Package connectwin builds the Connected agents wing of the window: the
// endpoint over the notes and message stores, its panel, the picker of
// what a connection may reach and the Messages screen's binding, and
// starts and stops the endpoint's server. It exists beside connect because
// the endpoint's resources (notesres, msgres) import connect. The command
// line builds its own endpoint (`osfoundry connections`); nothing here
// touches the Wails runtime.
package connectwin

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/msgres"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/tools"
)

// Options are what the Connected wing serves and reports to.
type Options struct {
	DB      *sql.DB
	Notes   *notes.Store // the one notes store every feature shares
	Emitter messages.Emitter
	// Runner offers the run tools to connected assistants
	// (workers.ConnectRunner).
	Runner connect.Runner
	// CodeRepo is the repository a project's workspace picked on the Code
	// screen: a change set applies there, never to whichever Local Folder
	// is newest.
	CodeRepo notesres.CodeRepo
	// PullRequests opens an approved propose_pull_request on the
	// repository's forge with the owner's login (forge.Opener).
	PullRequests connect.PullRequests
	// RegisterTool offers a tool to the runs of the app's one executor
	// (tools.Executor.Register).
	RegisterTool func(tools.Tool) error
	// Notify tells the person an assistant posted in a channel.
	Notify messages.Notifier
}

// Connected is the Connected agents and Messages screens' bindings over
// one endpoint.
type Connected struct {
	Panel    *connect.Panel
	Picker   *notesres.Picker
	Messages *messages.Binding
	// Store is the message channels (a synced project's discussion syncs).
	Store  *messages.Store
	server *connect.Server
}

// Open builds the endpoint over the notes and message stores in opts.DB;
// Start serves it.
func Open(ctx context.Context, opts Options) (*Connected, error) {
	msgs, err := messages.Open(opts.DB, messages.Options{})
	if err != nil {
		return nil, fmt.Errorf("opening the message channels: %w", err)
	}
	svc, err := connect.Open(ctx, opts.DB, connect.Options{Resources: msgres.Resources{Resources: notesres.New(opts.Notes), S: msgs},
		Runner: opts.Runner, Extra: []connect.ToolSource{msgres.Source{S: msgs}},
		Repos: notesres.Repos(opts.Notes, opts.CodeRepo), PullRequests: opts.PullRequests, Imports: notesres.Imports(opts.Notes),
	})
	if err != nil {
		return nil, fmt.Errorf("opening the Connected agents endpoint: %w", err)
	}
	msgs.SetNameOf(msgres.NameOf(svc))
	// A run started for a project reads and posts in its discussion
	// channel through its bridge (workers offers the tools to such runs).
	for _, t := range msgs.RunTools() {
		if err := opts.RegisterTool(t); err != nil {
			return nil, fmt.Errorf("offering the message tools to runs: %w", err)
		}
	}
	c := &Connected{Messages: messages.NewBinding(ctx, msgs, opts.Emitter, opts.Notify, nil), Store: msgs}
	if c.server, err = connect.NewServer(svc, connect.ServerConfig{}); err != nil {
		return nil, fmt.Errorf("building the Connected agents server: %w", err)
	}
	c.Panel = connect.NewPanel(ctx, svc, c.server)
	c.Picker = notesres.NewPicker(ctx, opts.Notes, msgs)
	return c, nil
}

// Start serves the endpoint. A fixed port keeps the address assistants
// saved valid; when another program holds it, any free loopback port
// still lets assistants connect.
func (c *Connected) Start() error {
	if err := c.server.Start(connect.DefaultAddr); err != nil {
		return c.server.Start("127.0.0.1:0")
	}
	return nil
}

// Close stops the server, giving open requests up to two seconds.
func (c *Connected) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c.server.Close(ctx)
}
