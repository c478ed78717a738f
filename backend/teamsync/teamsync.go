// Package teamsync is the team server's side of Synced projects: it
// numbers every change of a workspace's shared content (one increasing
// sequence per workspace, kept by triggers in PostgreSQL), lets a signed-in
// desktop pull the changes after the last number it holds, tells it live
// when there are new ones (server-sent events fed by LISTEN/NOTIFY, so a
// change committed through any replica reaches desktops on every replica),
// and takes its edits as the same conditional writes the Connected tools
// make (expected_version + idempotency_key): PostgreSQL transactions decide
// who won, and a desktop that lost is told so with the current content.
//
// Only what a team shares is here. Local-only projects, terminals and
// sessions never reach this package: the desktop sends only the Notes of
// projects its person moved to Synced, their knowledge bases, Records
// and discussion channel.
package teamsync

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/pghub"
	"github.com/osfoundry/desktop/backend/teamauth"

	"github.com/osfoundry/desktop/backend/pgdb"
)

// Component names this package's migrations (table schema_teamsync). They
// put triggers on the notes and messages components' tables, so they run
// after both.
const Component = "teamsync"

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations is the schema, in goose's format, for pgdb.Migrate.
func Migrations() fs.FS { return pgdb.Embedded(migrationFiles) }

// Config is what the team server passes in.
type Config struct {
	Pool  *pgxpool.Pool
	Auth  *teamauth.Service
	Notes *notes.Store
	// Messages keeps the projects' discussion channels (nil: none).
	Messages *messages.Store
	Logger   *slog.Logger
}

// Service serves the sync API; Listen must run for live updates.
type Service struct {
	cfg Config
	hub *pghub.Hub
}

// New checks cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Pool == nil || cfg.Auth == nil || cfg.Notes == nil {
		return nil, errors.New("teamsync: Pool, Auth and Notes are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{cfg: cfg, hub: pghub.New(notifyChannel)}, nil
}

// Register hands each route to mount. Every route takes a desktop's access
// token (teamauth.DesktopAPI) and checks the person's role in the
// workspace on every call.
func (s *Service) Register(mount func(pattern string, h http.Handler)) {
	api := s.cfg.Auth.DesktopAPI
	mount("GET /api/sync/{ws}/changes", api(s.changes))
	mount("GET /api/sync/{ws}/projects", api(s.listProjects))
	mount("POST /api/sync/{ws}/projects", api(s.createProject))
	mount("GET /api/sync/{ws}/projects/{project}", api(s.snapshot))
	mount("POST /api/sync/{ws}/notes", api(s.createNote))
	mount("POST /api/sync/{ws}/notes/{note}/tabs/{tab}", api(s.editTab))
	mount("POST /api/sync/{ws}/kbs", api(s.createKB))
	mount("POST /api/sync/{ws}/kbs/{kb}/articles/{article}", api(s.writeArticle))
	mount("POST /api/sync/{ws}/records", api(s.createRecordChannel))
	mount("POST /api/sync/{ws}/records/{channel}/items/{item}", api(s.writeRecord))
	mount("POST /api/sync/{ws}/posts", api(s.createPost))
	mount("POST /api/sync/{ws}/channels", api(s.createChannel))
	mount("DELETE /api/sync/{ws}/kbs/{kb}", api(s.deleteKB))
	mount("DELETE /api/sync/{ws}/kbs/{kb}/articles/{article}", api(s.deleteArticle))
	mount("DELETE /api/sync/{ws}/records/{channel}/items/{item}", api(s.deleteRecord))
	mount("GET /api/sync/{ws}/events", http.HandlerFunc(s.events))
}

// Listen announces committed changes to the desktops listening on this
// replica until ctx ends (see hub). It returns once the replica listens
// (so /readyz answers ready from the start), or with why it cannot; the
// listening goes on in the background, connecting again after a drop.
func (s *Service) Listen(ctx context.Context) error {
	return s.hub.Listen(ctx, s.cfg.Pool, s.cfg.Logger)
}

// Ready is nil while the replica listens for changes.
func (s *Service) Ready() error {
	if !s.hub.Listening() {
		return errors.New("synced projects: not listening for changes")
	}
	return nil
}

func badInput(format string, a ...any) error {
	return teamauth.Refuse(http.StatusBadRequest, format, a...)
}
