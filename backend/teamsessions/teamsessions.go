// Package teamsessions is the team server's side of "Share this
// computer's sessions": a desktop whose person turned the switch on sends
// its Sessions board — for each session its kind, title, state, board key
// and since when, and, only while it needs the person, the line the
// detector matched and how many choices its prompt offers — and the
// person sees those sessions on their other desktops, on the server's
// pages and through assistants they connected (list_shared_sessions).
//
// Each upload replaces everything that desktop sent before, so the server
// holds exactly the desktop's last word; turning the switch off deletes it
// at once. Nothing else of a session is accepted (unknown fields are
// refused), and terminal text, pane history and External agents never
// reach this package. A person only ever reads their own sessions.
package teamsessions

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/pghub"
	"github.com/osfoundry/desktop/backend/teamauth"

	"github.com/osfoundry/desktop/backend/pgdb"
)

// Component names this package's migrations (table schema_teamsessions).
// They refer to teamauth's people, so they run after it.
const Component = "teamsessions"

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations is the schema, in goose's format, for pgdb.Migrate.
func Migrations() fs.FS { return pgdb.Embedded(migrationFiles) }

// StaleAfter is how long a desktop's sessions stay listed without a word
// from it: a sharing desktop repeats its list every minute while it runs,
// so the sessions of one that was closed or lost its network stop showing.
const StaleAfter = 3 * time.Minute

// Config is what the team server passes in.
type Config struct {
	Pool   *pgxpool.Pool
	Auth   *teamauth.Service
	Logger *slog.Logger
	Now    func() time.Time
	// NeedsYou, when set, hears of each session that starts needing its
	// person (it was not needs_you in the device's previous upload), after
	// the upload is committed and off the desktop's request (the push).
	NeedsYou func(ctx context.Context, person string, d teamauth.Device, s Session)
	// Pushes lists and stops the Web Push subscriptions of the person's
	// browsers (nil: the server sends no pushes).
	Pushes Pushes
}

// Service serves shared sessions; Listen must run for live updates.
type Service struct {
	cfg Config
	hub *pghub.Hub
}

// New checks cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Pool == nil || cfg.Auth == nil {
		return nil, errors.New("teamsessions: Pool and Auth are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{cfg: cfg, hub: pghub.New(notifyChannel)}, nil
}

// Register hands each route to mount. A desktop writes only its own list
// (the device comes from its access token); reading takes a desktop's
// token or the browser's session, and always answers the caller's own.
func (s *Service) Register(mount func(pattern string, h http.Handler)) {
	mount("PUT /api/sessions/device", s.cfg.Auth.DesktopDeviceAPI(s.put))
	mount("DELETE /api/sessions/device", s.cfg.Auth.DesktopDeviceAPI(s.remove))
	mount("GET /api/sessions", http.HandlerFunc(s.list))
	mount("GET /api/sessions/events", http.HandlerFunc(s.events))
	s.registerAnswers(mount)
	s.registerBrowsers(mount)
	s.registerPage(mount)
}

// Listen announces changed lists to the readers on this replica until ctx
// ends (see hub). It returns once the replica listens (so /readyz answers
// ready from the start), or with why it cannot; the listening goes on in
// the background, connecting again after a drop.
func (s *Service) Listen(ctx context.Context) error {
	return s.hub.Listen(ctx, s.cfg.Pool, s.cfg.Logger)
}

// Ready is nil while the replica listens for changes.
func (s *Service) Ready() error {
	if !s.hub.Listening() {
		return errors.New("shared sessions: not listening for changes")
	}
	return nil
}

func (s *Service) put(_ http.ResponseWriter, r *http.Request, p teamauth.Person, d teamauth.Device) (any, error) {
	var in Upload
	if err := readUpload(r, &in); err != nil {
		return nil, err
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	if err := s.PutUpload(r.Context(), p.ID, d, in); err != nil {
		return nil, err
	}
	return nil, nil
}

func (s *Service) remove(_ http.ResponseWriter, r *http.Request, p teamauth.Person, d teamauth.Device) (any, error) {
	return nil, s.Delete(r.Context(), p.ID, d.Key)
}

// list answers GET /api/sessions for a desktop (Authorization: Bearer) or
// a signed-in browser.
func (s *Service) list(w http.ResponseWriter, r *http.Request) {
	if isBearer(r) {
		s.cfg.Auth.DesktopDeviceAPI(func(_ http.ResponseWriter, r *http.Request, p teamauth.Person, d teamauth.Device) (any, error) {
			return s.Shared(r.Context(), p.ID, d.Key)
		})(w, r)
		return
	}
	s.cfg.Auth.API(func(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
		return s.Shared(r.Context(), p.ID, "")
	})(w, r)
}

func isBearer(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ")
}

func badInput(format string, a ...any) error {
	return teamauth.Refuse(http.StatusBadRequest, format, a...)
}
