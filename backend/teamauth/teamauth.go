// Package teamauth says who is who on the team server: people sign in with
// their company's OpenID Connect provider, belong to workspaces with a role
// (owner, editor, viewer), may hold the runner role and approve proposals
// in given projects.
//
// Everything that must outlive a request lives in PostgreSQL: sign-ins under
// way (state, nonce, PKCE verifier), web sessions, members, roles and the
// one-time bootstrap link. Any replica can receive any request, and a
// member's role is read again on every check, so a person removed from a
// workspace loses access on their next call.
//
// It never issues tokens to assistants (the OAuth authorization server in
// backend/connect does); desktops sign in here as native apps (desktop.go)
// and get tokens that only this package reads. Session cookies, states and bootstrap
// tokens are stored only as SHA-256 hashes; the nonce and PKCE verifier of
// a sign-in under way must be read back, so they are kept in clear until
// its callback (at most Config.LoginTTL), as is the path it returns to.
package teamauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/pgdb"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Component is the name of this package's migrations (table schema_teamauth).
const Component = "teamauth"

// Defaults for Config's durations.
const (
	DefaultSessionTTL   = 12 * time.Hour
	DefaultLoginTTL     = 10 * time.Minute
	DefaultBootstrapTTL = 24 * time.Hour
)

// Config is what the server passes from its flags and environment.
type Config struct {
	Pool *pgxpool.Pool
	// PublicURL is where browsers reach the server (https://team.example.com);
	// the provider redirects to PublicURL + /auth/callback.
	PublicURL string
	// Issuer, ClientID and ClientSecret identify the company's provider and
	// this server's client registration there.
	Issuer       string
	ClientID     string
	ClientSecret string
	// Scopes beyond openid; default email and profile.
	Scopes []string
	// TrustProviderEmail treats every email the provider sends as verified,
	// for providers that never send email_verified (Entra ID). Only a
	// verified email claims an invitation.
	TrustProviderEmail bool

	SessionTTL   time.Duration // default DefaultSessionTTL
	LoginTTL     time.Duration // how long a sign-in may take; default DefaultLoginTTL
	BootstrapTTL time.Duration // default DefaultBootstrapTTL
	// A desktop's access token lives DesktopAccessTTL (default
	// DefaultAccessTTL); its refresh token DesktopRefreshTTL from its last
	// rotation (default DefaultRefreshTTL).
	DesktopAccessTTL  time.Duration
	DesktopRefreshTTL time.Duration

	// HTTPClient talks to the provider (nil: http.DefaultClient).
	HTTPClient *http.Client
	Logger     *slog.Logger
	Now        func() time.Time // nil: time.Now
}

// Service signs people in and answers who may do what.
type Service struct {
	db      *pgxpool.Pool
	public  *url.URL
	secure  bool
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	mu      sync.Mutex
	oidcP   *oidc.Provider // discovered on first use, then kept
	cookies cookieNames
}

// Migrations are the teamauth tables' goose migrations, for a server that
// runs every component's migrations before starting any (New runs them too;
// twice is harmless).
func Migrations() fs.FS { return pgdb.Embedded(migrations) }

// Migrate brings the teamauth tables up to date (under pgdb's lock).
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return pgdb.Migrate(ctx, pool, Component, Migrations())
}

// New checks cfg, migrates the tables and returns the service. It does not
// contact the provider: a provider that is down at start only delays
// sign-ins, never the server.
func New(ctx context.Context, cfg Config) (*Service, error) {
	if cfg.Pool == nil {
		return nil, errors.New("teamauth: no database pool")
	}
	pub, err := url.Parse(strings.TrimRight(cfg.PublicURL, "/"))
	if err != nil || (pub.Scheme != "https" && pub.Scheme != "http") || pub.Host == "" {
		return nil, fmt.Errorf("the public URL %q is not an http(s) URL: pass the address browsers use, like https://team.example.com", cfg.PublicURL)
	}
	if cfg.Issuer == "" || cfg.ClientID == "" {
		return nil, errors.New("no OpenID Connect provider configured: pass the issuer URL and the client ID (and secret) registered there for " + pub.String() + callbackPath)
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = DefaultSessionTTL
	}
	if cfg.LoginTTL <= 0 {
		cfg.LoginTTL = DefaultLoginTTL
	}
	if cfg.BootstrapTTL <= 0 {
		cfg.BootstrapTTL = DefaultBootstrapTTL
	}
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = []string{"email", "profile"}
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	s := &Service{db: cfg.Pool, public: pub, secure: pub.Scheme == "https", cfg: cfg, log: cfg.Logger, now: cfg.Now}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.cookies = newCookieNames(s.secure)
	if err := Migrate(ctx, cfg.Pool); err != nil {
		return nil, err
	}
	return s, nil
}

// PublicURL is the server's public origin, without a trailing slash.
func (s *Service) PublicURL() string { return s.public.String() }

// LoginURL is the sign-in address that comes back to returnTo (a path on
// this server) afterwards; the consent page sends a signed-out browser here.
func (s *Service) LoginURL(returnTo string) string {
	return s.public.String() + loginPath + "?return_to=" + url.QueryEscape(returnTo)
}

// Handler serves the sign-in routes (/auth/…) and the members API
// (/api/workspaces…) on a mux of its own.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	s.Register(mux.Handle)
	return mux
}

// Register hands each route (a net/http ServeMux pattern) to mount, e.g. a
// server's own mux.Handle or a Mount that times requests by pattern.
func (s *Service) Register(mount func(pattern string, h http.Handler)) {
	mount("GET "+loginPath, http.HandlerFunc(s.handleLogin))
	mount("GET "+callbackPath, http.HandlerFunc(s.handleCallback))
	mount("GET "+logoutPath, http.HandlerFunc(s.handleLogoutPage))
	mount("POST "+logoutPath, http.HandlerFunc(s.handleLogout))
	mount("GET "+bootstrapPath, http.HandlerFunc(s.handleBootstrap))
	mount("GET "+mePath, http.HandlerFunc(s.handleMe))
	mount("GET "+hopPath, http.HandlerFunc(s.handleHop))
	s.registerDesktop(mount)
	s.registerAPI(mount)
}

// newSecret is a random value of 32 bytes behind a readable prefix.
func newSecret(prefix string) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("reading random bytes: %v", err)) // the OS has no entropy: nothing is safe
	}
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// newID is a random identifier (not a secret, but not guessable either).
func newID(prefix string) string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("reading random bytes: %v", err))
	}
	return prefix + hex.EncodeToString(b)
}

// hashSecret is how secrets are stored and looked up.
func hashSecret(v string) string {
	h := sha256.Sum256([]byte(v))
	return hex.EncodeToString(h[:])
}

// sameSecret compares two secrets (or their hashes) in constant time.
func sameSecret(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 && a != ""
}
