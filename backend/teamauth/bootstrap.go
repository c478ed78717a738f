package teamauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/lazy"
)

// FirstWorkspaceName names the workspace the bootstrap link creates; its
// owner can rename it later.
const FirstWorkspaceName = "Team"

// Refusals of a bootstrap link, each with what to do.
var (
	ErrBootstrapUnknown = errors.New("this setup link is not known: copy the whole link the server printed")
	ErrBootstrapUsed    = errors.New("this setup link was already used: ask the workspace's owner to invite you")
	ErrBootstrapExpired = errors.New("this setup link expired: restart the server to print a new one")
	ErrHasOwner         = errors.New("the team server already has an owner: ask them to invite you")
)

// bootstrapLock serialises claiming the first owner across replicas.
const bootstrapLock = 0x6f7366_6f776e // "osf" "own"

// BootstrapLink mints a one-time link that makes whoever opens it (after
// signing in) the owner of the first workspace, or returns "" when an owner
// exists. The server prints it at start; each replica's link works until
// one is used or it expires.
func (s *Service) BootstrapLink(ctx context.Context) (string, error) {
	has, err := s.hasOwner(ctx, s.db)
	if err != nil || has {
		return "", err
	}
	tok := newSecret("osfboot_")
	now := s.now()
	if _, err := s.db.Exec(ctx, `INSERT INTO teamauth_bootstrap (hash, created_at, expires_at) VALUES ($1, $2, $3)`,
		hashSecret(tok), now, now.Add(s.cfg.BootstrapTTL)); err != nil {
		return "", fmt.Errorf("storing the setup link: %w", err)
	}
	return s.public.String() + bootstrapPath + "?token=" + url.QueryEscape(tok), nil
}

func (s *Service) hasOwner(ctx context.Context, q querier) (bool, error) {
	var has bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM teamauth_members WHERE role = 'owner' AND person_id IS NOT NULL)`).
		Scan(&has); err != nil {
		return false, fmt.Errorf("looking for an owner: %w", err)
	}
	return has, nil
}

// ClaimBootstrap spends token for person: they become the owner of a new
// first workspace. Exactly one claim ever succeeds.
func (s *Service) ClaimBootstrap(ctx context.Context, personID, token string) (Workspace, error) {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return Workspace{}, fmt.Errorf("claiming the setup link: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(bootstrapLock)); err != nil {
		return Workspace{}, fmt.Errorf("claiming the setup link: %w", err)
	}
	var expires time.Time
	var used *time.Time
	err = tx.QueryRow(ctx, `SELECT expires_at, used_at FROM teamauth_bootstrap WHERE hash = $1 FOR UPDATE`,
		hashSecret(token)).Scan(&expires, &used)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Workspace{}, ErrBootstrapUnknown
	case err != nil:
		return Workspace{}, fmt.Errorf("claiming the setup link: %w", err)
	case used != nil:
		return Workspace{}, ErrBootstrapUsed
	case !s.now().Before(expires):
		return Workspace{}, ErrBootstrapExpired
	}
	if has, err := s.hasOwner(ctx, tx); err != nil {
		return Workspace{}, err
	} else if has {
		return Workspace{}, ErrHasOwner
	}
	w, err := s.createWorkspace(ctx, tx, personID, FirstWorkspaceName)
	if err != nil {
		return Workspace{}, err
	}
	// every other replica's link dies with this one: there is an owner now
	if _, err := tx.Exec(ctx, `UPDATE teamauth_bootstrap SET used_at = $2, used_by = CASE WHEN hash = $1 THEN $3 END
		WHERE used_at IS NULL`, hashSecret(token), s.now(), personID); err != nil {
		return Workspace{}, fmt.Errorf("claiming the setup link: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return Workspace{}, fmt.Errorf("claiming the setup link: %w", err)
	}
	return w, nil
}

var ownerPage = lazy.HTML("owner", `<!doctype html>
<meta charset="utf-8"><title>osFoundry team server</title>
<h1>You own “{{.Name}}”</h1>
<p>Workspace id <code>{{.ID}}</code>. Invite your teammates by email: they become members when they first sign in.</p>
`)

// handleBootstrap sends a signed-out browser to sign in first and back,
// then spends the link.
func (s *Service) handleBootstrap(w http.ResponseWriter, r *http.Request) {
	tok := r.URL.Query().Get("token")
	if tok == "" || len(tok) > 200 {
		http.Error(w, ErrBootstrapUnknown.Error(), http.StatusBadRequest)
		return
	}
	p, err := s.SessionPerson(r)
	if errors.Is(err, ErrNoSession) {
		http.Redirect(w, r, s.LoginURL(bootstrapPath+"?token="+url.QueryEscape(tok)), http.StatusFound)
		return
	}
	if err != nil {
		s.serverError(w, err)
		return
	}
	ws, err := s.ClaimBootstrap(r.Context(), p.ID, tok)
	switch {
	case errors.Is(err, ErrBootstrapUnknown):
		http.Error(w, err.Error(), http.StatusNotFound)
	case errors.Is(err, ErrBootstrapUsed), errors.Is(err, ErrBootstrapExpired), errors.Is(err, ErrHasOwner):
		http.Error(w, err.Error(), http.StatusGone)
	case err != nil:
		s.serverError(w, err)
	default:
		s.log.Info("first owner", "person", p.ID, "workspace", ws.ID)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = ownerPage().Execute(w, ws)
	}
}
