// Package teampush tells a person, away from their desk, that a session
// needs them: through ntfy (ntfy.sh or the team's own ntfy server; the
// person's phone app subscribes to a random topic the server made for
// them) and through Web Push to the Needs you page (VAPID, RFC 8291
// encryption, by the maintained webpush-go library). Each session pushes
// at most once per cooldown, whichever replica sees it first: the last
// push of each session is a row in PostgreSQL.
//
// A push carries the session's title and the question's first line,
// never more of the terminal, and a link to the page.
package teampush

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// Component names this package's migrations (table schema_teampush).
const Component = "teampush"

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations is the schema, in goose's format, for pgdb.Migrate.
func Migrations() fs.FS { return pgdb.Embedded(migrationFiles) }

// Cooldown is how long a session stays quiet after it pushed.
const Cooldown = 30 * time.Second

// Config is what the team server passes in.
type Config struct {
	Pool *pgxpool.Pool
	// PublicURL is the server's address: links in pushes and the VAPID
	// subscriber.
	PublicURL string
	// HTTP sends to ntfy and the push services (nil: 10 s timeout).
	HTTP   *http.Client
	Logger *slog.Logger
	Now    func() time.Time
}

// Service sends pushes and keeps subscriptions.
type Service struct {
	cfg  Config
	auth *teamauth.Service // set by Register
}

// New checks cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Pool == nil || cfg.PublicURL == "" {
		return nil, errors.New("teampush: Pool and PublicURL are required")
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{cfg: cfg}, nil
}

// Message is one push.
type Message struct {
	Title string `json:"title"` // "Claude Code needs you"
	Body  string `json:"body"`  // the question's first line
	// URL opens the page on the session (a path on this server or a full URL).
	URL string `json:"url"`
}

// Delivery says what a Notify did.
type Delivery struct {
	Skipped bool // within the session's cooldown: nothing sent
	Quiet   bool // in the person's quiet hours: nothing sent
	Ntfy    bool // published to the person's ntfy topic
	WebPush int  // browsers reached
	Failed  []string
}

// Notify pushes m to person about session, unless that session pushed
// within the cooldown (on any replica) or the person is in their quiet
// hours. Failures of one channel do not
// stop the others; a browser subscription its push service says is gone
// is removed.
func (s *Service) Notify(ctx context.Context, personID, session string, m Message) (Delivery, error) {
	if quiet, err := s.quietNow(ctx, personID); err != nil {
		return Delivery{}, err
	} else if quiet {
		return Delivery{Quiet: true}, nil
	}
	return s.send(ctx, personID, session, m)
}

// send is Notify outside quiet hours (a test push is sent whenever asked).
func (s *Service) send(ctx context.Context, personID, session string, m Message) (Delivery, error) {
	var d Delivery
	now := s.cfg.Now()
	var sent time.Time
	err := s.cfg.Pool.QueryRow(ctx, `INSERT INTO teampush_sent (person_id, session_key, sent_at) VALUES ($1, $2, $3)
		ON CONFLICT (person_id, session_key) DO UPDATE SET sent_at = excluded.sent_at
		WHERE teampush_sent.sent_at <= $4 RETURNING sent_at`, personID, session, now, now.Add(-Cooldown)).Scan(&sent)
	if errors.Is(err, pgx.ErrNoRows) {
		d.Skipped = true
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("checking the session's cooldown: %w", err)
	}
	if m.URL != "" && m.URL[0] == '/' {
		m.URL = s.cfg.PublicURL + m.URL
	}
	if err := s.ntfy(ctx, personID, m); err != nil {
		if !errors.Is(err, errNoTopic) {
			d.Failed = append(d.Failed, err.Error())
		}
	} else {
		d.Ntfy = true
	}
	n, failed, err := s.webPush(ctx, personID, m)
	d.WebPush, d.Failed = n, append(d.Failed, failed...)
	if err != nil {
		return d, err
	}
	for _, f := range d.Failed {
		s.cfg.Logger.Warn("a push was not delivered", "person", personID, "error", f)
	}
	return d, nil
}
