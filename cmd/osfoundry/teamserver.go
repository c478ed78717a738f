package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/cli"
	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/msgres"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/connect/pgconnect"
	"github.com/osfoundry/desktop/backend/connect/pgproposals"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/messages/pgmessages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/notes/pgnotes"
	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/teamconnect"
	"github.com/osfoundry/desktop/backend/teampush"
	"github.com/osfoundry/desktop/backend/teamruns"
	"github.com/osfoundry/desktop/backend/teamserver"
	"github.com/osfoundry/desktop/backend/teamserver/teamconfig"
	"github.com/osfoundry/desktop/backend/teamsessions"
	"github.com/osfoundry/desktop/backend/teamsync"
	"github.com/osfoundry/desktop/backend/teamweb"
)

// The team server links here, in the command line only: the window app,
// which shares backend/cli, never carries the PostgreSQL driver.
func init() {
	cli.SetTeamServer(func(ctx context.Context, cfg teamconfig.Config, stdout, stderr io.Writer) int {
		return teamserver.Run(ctx, cfg, teamserver.Options{
			Version: cli.Version, Stdout: stdout, Stderr: stderr,
			Components: teamComponents(),
		})
	})
}

// sweepEvery is how often a replica drops expired sign-ins and sessions
// (idempotent deletes, so every replica may run them).
const sweepEvery = time.Minute

// teamParts are what the components share once started, in the order
// they start: sign-in, then the notes store, the message store over its
// projects, and the Connected endpoint over both.
type teamParts struct {
	auth  *teamauth.Service
	notes *notes.Store
	msgs  *messages.Store
	sync  *teamsync.Service
	runs  *teamruns.Service
	// sessions is the sessions desktops share (teamserver_sessions.go).
	sessions *teamsessions.Service
	push     *teampush.Service
	log      *slog.Logger // the server's

	mu        sync.Mutex
	listenErr error // the message listener's last failure, for /readyz
}

// teamComponents are the parts of the team server beside its own health,
// metrics and replica registry. Only what a team shares lives here: a
// desktop's Local-only projects, terminals and sessions are never sent,
// so the endpoint's "Local-only data is unavailable" stays true.
func teamComponents() []teamserver.Component {
	p := &teamParts{}
	return []teamserver.Component{
		{Name: teamauth.Component, Migrations: teamauth.Migrations(), Start: p.startAuth},
		{Name: pgnotes.Component, Migrations: pgnotes.Migrations(), Start: p.startNotes},
		{Name: teamsessions.Component, Migrations: teamsessions.Migrations(), Start: p.startSessions, Ready: p.sessionsReady},
		{Name: teampush.Component, Migrations: teampush.Migrations(), Start: p.startPush},
		{Name: pgmessages.Component, Migrations: pgmessages.Migrations(), Start: p.startMessages, Ready: p.messagesReady},
		// After the message channels: it numbers discussion posts too.
		{Name: teamsync.Component, Migrations: teamsync.Migrations(), Start: p.startSync, Ready: p.syncReady},
		{Name: teamruns.Component, Migrations: teamruns.Migrations(), Start: p.startRuns},
		{Name: pgproposals.Component, Migrations: pgproposals.Migrations()},
		{Name: pgconnect.Component, Migrations: pgconnect.Migrations(), Start: p.startConnect},
	}
}

// startAuth mounts sign-in and the members API. Without a provider nobody
// can sign in, so neither sign-in nor the Connected endpoint is served;
// the server still runs (health, metrics) and says what to set.
func (p *teamParts) startAuth(ctx context.Context, s *teamserver.Server) error {
	p.log = s.Logger()
	cfg := s.Config()
	if cfg.OIDCIssuer == "" {
		s.Logger().Warn("sign-in and the Connected endpoint are off: set " + teamconfig.EnvOIDCIssuer +
			" and " + teamconfig.EnvOIDCClientID + " (or --oidc-issuer and --oidc-client-id) to your OpenID Connect provider")
		return nil
	}
	auth, err := teamauth.New(ctx, teamauth.Config{Pool: s.Pool(), PublicURL: cfg.PublicURL,
		Issuer: cfg.OIDCIssuer, ClientID: cfg.OIDCClientID, ClientSecret: cfg.OIDCClientSecret, Logger: s.Logger()})
	if err != nil {
		return err
	}
	auth.Register(s.Mount)
	link, err := auth.BootstrapLink(ctx)
	if err != nil {
		return fmt.Errorf("making the setup link: %w", err)
	}
	if link != "" {
		s.Notice("No workspace has an owner yet. Open this one-time link within a day to sign in and become its owner:\n  " + link)
	}
	go every(ctx, sweepEvery, func() {
		if err := auth.Sweep(ctx); err != nil {
			s.Logger().Warn("sweeping expired sign-ins", "error", err.Error())
		}
	})
	p.auth = auth
	return nil
}

func (p *teamParts) startNotes(ctx context.Context, s *teamserver.Server) error {
	db, err := pgnotes.Open(ctx, s.Pool())
	if err != nil {
		return err
	}
	p.notes = notes.OpenBackend(db, db, notes.Options{})
	return nil
}

// startPush keeps each person's ntfy topic and browsers' Web Push
// subscriptions, and sends the pushes.
func (p *teamParts) startPush(_ context.Context, s *teamserver.Server) error {
	if p.auth == nil {
		return nil
	}
	svc, err := teampush.New(teampush.Config{Pool: s.Pool(), PublicURL: s.Config().PublicURL, Logger: s.Logger()})
	if err != nil {
		return err
	}
	svc.Register(p.auth, s.Mount)
	p.push = svc
	return nil
}

// startSync serves Synced projects to desktops: pulls, pushes, and live
// news of changes committed through any replica.
func (p *teamParts) startSync(ctx context.Context, s *teamserver.Server) error {
	if p.auth == nil {
		return nil
	}
	svc, err := teamsync.New(teamsync.Config{Pool: s.Pool(), Auth: p.auth, Notes: p.notes, Messages: p.msgs, Logger: s.Logger()})
	if err != nil {
		return err
	}
	if err := svc.Listen(ctx); err != nil {
		return err
	}
	svc.Register(s.Mount)
	p.sync = svc
	return nil
}

// startRuns queues the runs asked for in a workspace for the desktops
// that run work for it, and watches their leases.
func (p *teamParts) startRuns(ctx context.Context, s *teamserver.Server) error {
	if p.auth == nil {
		return nil
	}
	svc, err := teamruns.New(teamruns.Config{Pool: s.Pool(), Auth: p.auth, Logger: s.Logger()})
	if err != nil {
		return err
	}
	if err := svc.Start(ctx); err != nil {
		return err
	}
	svc.Register(s.Mount)
	p.runs = svc
	return nil
}

// runTools offers assistants request_session_run: runs go to the desktops
// that run work for the team.
func (p *teamParts) runTools() []connect.ToolSource {
	if p.runs == nil {
		return nil
	}
	return []connect.ToolSource{teamruns.Source{S: p.runs}}
}

func (p *teamParts) syncReady(context.Context) error {
	if p.sync == nil {
		return nil
	}
	return p.sync.Ready()
}

// startMessages opens the message channels and listens for posts any
// replica commits; /readyz says so while that listener is down.
func (p *teamParts) startMessages(ctx context.Context, s *teamserver.Server) error {
	msgs, backend, err := pgmessages.OpenStore(ctx, s.Pool(), messages.Options{})
	if err != nil {
		return err
	}
	p.msgs = msgs
	go func() {
		err := backend.Listen(ctx, func(pgmessages.Posted) {}, nil)
		if ctx.Err() == nil && err != nil {
			s.Logger().Error("listening for posts", "error", err.Error())
			p.mu.Lock()
			p.listenErr = err
			p.mu.Unlock()
		}
	}()
	return nil
}

func (p *teamParts) messagesReady(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listenErr != nil {
		return errors.New("message channels: not listening for posts")
	}
	return nil
}

// startConnect serves the Connected endpoint: the same tools, scopes and
// per-call checks as the desktop's, over the shared stores. Runs go to
// desktops (request_session_run queues one for a desktop that runs work
// for the team); there is no Local Folder, so a change set says it needs
// one.
func (p *teamParts) startConnect(ctx context.Context, s *teamserver.Server) error {
	if p.auth == nil {
		return nil
	}
	pool := s.Pool()
	st, err := pgconnect.Open(ctx, pool)
	if err != nil {
		return err
	}
	props, err := pgproposals.Open(ctx, pool)
	if err != nil {
		return err
	}
	store := teamconnect.NewStore(st, pool)
	svc, err := connect.New(ctx, store, connect.Options{
		Resources: msgres.Resources{Resources: notesres.New(p.notes), S: p.msgs},
		Extra:     append([]connect.ToolSource{msgres.Source{S: p.msgs}}, append(p.sessionTools(), p.runTools()...)...),
		Proposals: props,
	})
	if err != nil {
		return fmt.Errorf("opening the Connected endpoint: %w", err)
	}
	p.msgs.SetNameOf(msgres.NameOf(svc))
	srv, err := connect.NewServer(svc, connect.ServerConfig{PublicURL: s.Config().PublicURL,
		TrustedProxies: s.Config().TrustedProxies, People: teamconnect.People{Auth: p.auth}})
	if err != nil {
		return fmt.Errorf("building the Connected endpoint: %w", err)
	}
	h := srv.Handler()
	for _, pattern := range connectRoutes {
		s.Mount(pattern, h)
	}
	go srv.Janitor(ctx)
	// The people's page: projects, and which of them each assistant reaches.
	web, err := teamweb.New(teamweb.Config{Auth: p.auth, Notes: p.notes, Connect: svc,
		ConnectionsOf: store.ConnectionsOf, Logger: s.Logger()})
	if err != nil {
		return err
	}
	web.Register(s.Mount)
	return nil
}

// connectRoutes are the endpoint's routes, one pattern each so requests
// are counted and logged per route. The owner's one-time sign-in link
// (/oauth/signin) is not among them: people sign in with the provider.
var connectRoutes = []string{connect.ResourcePath,
	"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource" + connect.ResourcePath,
	"/.well-known/oauth-authorization-server",
	"/oauth/register", "/oauth/authorize", "/oauth/token"}

// every runs f each interval until ctx ends.
func every(ctx context.Context, interval time.Duration, f func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}
