package connect

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Lifetimes. Codes are short and single use; access tokens are short
// because refresh is cheap; refresh tokens rotate on every use.
const (
	CodeTTL        = 2 * time.Minute
	AccessTTL      = time.Hour
	RefreshTTL     = 30 * 24 * time.Hour
	authRequestTTL = 15 * time.Minute
	// UnusedClientTTL is how long a registration that never led to a
	// connection is kept.
	UnusedClientTTL = 7 * 24 * time.Hour
)

// OAuth errors (RFC 6749 §5.2 codes) returned by the token endpoint.
type oauthError struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

func (e *oauthError) Error() string { return e.Code + ": " + e.Description }

func invalidGrant(desc string) error { return &oauthError{"invalid_grant", desc} }

// client is a registered (public) OAuth client.
type client struct {
	ID           string
	Name         string
	RedirectURIs []string
}

// registerClient stores a public client (RFC 7591). Unknown metadata is
// ignored; the response echoes the redirect URIs, which the TypeScript SDK
// client requires.
func (s *Service) registerClient(ctx context.Context, m oauthex.ClientRegistrationMetadata) (*oauthex.ClientRegistrationResponse, error) {
	if len(m.RedirectURIs) == 0 {
		return nil, &oauthError{"invalid_redirect_uri", "redirect_uris is required"}
	}
	if len(m.RedirectURIs) > maxRedirectURIs {
		return nil, &oauthError{"invalid_redirect_uri", fmt.Sprintf("at most %d redirect_uris", maxRedirectURIs)}
	}
	for _, u := range m.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return nil, &oauthError{"invalid_redirect_uri", err.Error()}
		}
	}
	for _, g := range m.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return nil, &oauthError{"invalid_client_metadata", "grant_types may only hold authorization_code and refresh_token"}
		}
	}
	m.TokenEndpointAuthMethod = "none"
	if len(m.GrantTypes) == 0 {
		m.GrantTypes = []string{"authorization_code", "refresh_token"}
	}
	m.ResponseTypes = []string{"code"}
	name := cleanName(m.ClientName)
	m.ClientName = name
	id := newID("client")
	uris, _ := json.Marshal(m.RedirectURIs)
	meta, _ := json.Marshal(m)
	now := s.now()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO connect_clients (id, name, redirect_uris, metadata, created_at) VALUES (?, ?, ?, ?, ?)`,
		id, name, string(uris), string(meta), now.UnixMilli()); err != nil {
		return nil, fmt.Errorf("registering client: %w", err)
	}
	return &oauthex.ClientRegistrationResponse{ClientRegistrationMetadata: m, ClientID: id, ClientIDIssuedAt: now}, nil
}

// cleanName makes a client's self-chosen name safe to show: valid UTF-8,
// no control or format characters (NUL, escapes, bidi overrides and
// isolates, zero-width marks), runs of space as one, at most
// maxClientName characters cut on a character boundary.
func cleanName(raw string) string {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range strings.ToValidUTF8(raw, "") {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == utf8RuneError:
			continue
		}
		if n >= maxClientName {
			break
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	name := strings.TrimSpace(b.String())
	if name == "" {
		return "MCP client"
	}
	return name
}

const utf8RuneError = '\uFFFD'

// checkRedirectURI accepts https anywhere, and http only on a loopback
// host (RFC 8252 §7.3); never a fragment.
func checkRedirectURI(raw string) error {
	if len(raw) > maxURILen {
		return fmt.Errorf("a redirect URI is longer than %d characters", maxURILen)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("redirect URI %q must be an absolute URL", raw)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return fmt.Errorf("redirect URI %q must not have a fragment", raw)
	}
	// A user part makes http://evil.example@127.0.0.1/ read as one host
	// and go to another; a wildcard is not an address.
	if u.User != nil || strings.Contains(raw[:len(u.Scheme)+3+len(u.Host)], "@") {
		return fmt.Errorf("redirect URI %q must not contain a user name or password (user@host)", raw)
	}
	if strings.Contains(raw, "*") {
		return fmt.Errorf("redirect URI %q must not contain wildcards", raw)
	}
	if !hostRE.MatchString(u.Hostname()) {
		return fmt.Errorf("redirect URI %q has an invalid host", raw)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("redirect URI %q has an invalid port (1-65535)", raw)
		}
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
		return nil
	}
	return fmt.Errorf("redirect URI %q must use https, or http on a loopback address", raw)
}

// hostRE is a DNS name, an IPv4 address or (bracket-less) an IPv6 one.
var hostRE = regexp.MustCompile(`^([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.?$|^[0-9A-Fa-f:.]+$`)

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// redirectAllowed matches given against the registered URIs: exactly, or
// for a loopback http URI with any port (native apps pick a free port).
func redirectAllowed(registered []string, given string) bool {
	if slices.Contains(registered, given) {
		return true
	}
	g, err := url.Parse(given)
	if err != nil || g.Scheme != "http" || !isLoopbackHost(g.Hostname()) || g.Fragment != "" {
		return false
	}
	for _, r := range registered {
		ru, err := url.Parse(r)
		if err != nil || ru.Scheme != "http" || !isLoopbackHost(ru.Hostname()) {
			continue
		}
		if ru.Hostname() == g.Hostname() && ru.Path == g.Path && ru.RawQuery == g.RawQuery && g.User == nil {
			return true
		}
	}
	return false
}

func (s *Service) client(ctx context.Context, id string) (*client, error) {
	var c client
	var uris string
	err := s.db.QueryRowContext(ctx, `SELECT id, name, redirect_uris FROM connect_clients WHERE id = ?`, id).Scan(&c.ID, &c.Name, &uris)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading client: %w", err)
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return nil, fmt.Errorf("reading client redirect URIs: %w", err)
	}
	c.Name = cleanName(c.Name) // also rows stored before names were cleaned
	return &c, nil
}

var verifierRE = regexp.MustCompile(`^[A-Za-z0-9\-._~]{43,128}$`)

// pkceOK checks an S256 code verifier against the stored challenge.
func pkceOK(verifier, challenge string) bool {
	if !verifierRE.MatchString(verifier) {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	got := base64.RawURLEncoding.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) == 1
}

// TokenResponse is the token endpoint's answer (RFC 6749 §5.1).
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// codeGrant is what an authorization code was issued for.
type codeGrant struct {
	ClientID, ConnectionID, UserID, RedirectURI, Challenge, Resource string
	Scopes                                                           []string
}

// purge drops what can no longer be used: expired codes, consents,
// sign-ins and sessions, tokens a day past expiry, activity older than
// ActivityKeep, registrations unused for UnusedClientTTL. It runs on each
// consent and on the server's timer (Server.janitor).
func (s *Service) purge(ctx context.Context) {
	now := s.ms()
	for _, q := range []struct {
		sql string
		arg int64
	}{
		{`DELETE FROM connect_codes WHERE expires_at < ?`, now - int64(time.Hour/time.Millisecond)},
		{`DELETE FROM connect_auth_requests WHERE expires_at < ?`, now},
		{`DELETE FROM connect_sessions WHERE expires_at < ?`, now},
		{`DELETE FROM connect_tokens WHERE expires_at < ?`, now - int64(24*time.Hour/time.Millisecond)},
		{`DELETE FROM connect_activity WHERE at < ?`, now - int64(ActivityKeep/time.Millisecond)},
		{`DELETE FROM connect_clients WHERE created_at < ?
			AND NOT EXISTS (SELECT 1 FROM connect_connections c WHERE c.client_id = connect_clients.id)
			AND NOT EXISTS (SELECT 1 FROM connect_tokens t WHERE t.client_id = connect_clients.id)
			AND NOT EXISTS (SELECT 1 FROM connect_codes k WHERE k.client_id = connect_clients.id)
			AND NOT EXISTS (SELECT 1 FROM connect_auth_requests a WHERE a.client_id = connect_clients.id)`, now - int64(UnusedClientTTL/time.Millisecond)},
	} {
		s.db.ExecContext(ctx, q.sql, q.arg) // best effort; retried next consent
	}
}

// ActivityKeep is how long Recent activity lines are kept.
const ActivityKeep = 90 * 24 * time.Hour

func (s *Service) issueCode(ctx context.Context, g codeGrant) (string, error) {
	s.purge(ctx)
	code := newSecret("osfc_")
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_codes (hash, client_id, connection_id, user_id, redirect_uri, code_challenge, scopes, resource, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, hashSecret(code), g.ClientID, g.ConnectionID, g.UserID, g.RedirectURI, g.Challenge,
		strings.Join(g.Scopes, " "), g.Resource, s.now().Add(CodeTTL).UnixMilli())
	if err != nil {
		return "", fmt.Errorf("issuing code: %w", err)
	}
	return code, nil
}

// exchangeCode redeems a code once. A second use revokes what the first
// issued (RFC 6749 §4.1.2): the code may have been stolen.
func (s *Service) exchangeCode(ctx context.Context, code, clientID, redirectURI, verifier, resource string) (*TokenResponse, error) {
	h := hashSecret(code)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("redeeming code: %w", err)
	}
	defer tx.Rollback()
	var g codeGrant
	var scopes string
	var expires int64
	var used int
	err = tx.QueryRowContext(ctx, `SELECT client_id, connection_id, user_id, redirect_uri, code_challenge, scopes, resource, expires_at, used
		FROM connect_codes WHERE hash = ?`, h).Scan(&g.ClientID, &g.ConnectionID, &g.UserID, &g.RedirectURI, &g.Challenge, &scopes, &g.Resource, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, invalidGrant("unknown authorization code")
	}
	if err != nil {
		return nil, fmt.Errorf("redeeming code: %w", err)
	}
	if used != 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE connect_tokens SET revoked = 1 WHERE family = ?`, h); err != nil {
			return nil, fmt.Errorf("revoking reused code's tokens: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return nil, fmt.Errorf("revoking reused code's tokens: %w", err)
		}
		return nil, invalidGrant("authorization code was already used; tokens issued from it are revoked")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE connect_codes SET used = 1 WHERE hash = ?`, h); err != nil {
		return nil, fmt.Errorf("redeeming code: %w", err)
	}
	switch {
	case s.now().UnixMilli() > expires:
		err = invalidGrant("authorization code expired; start the sign-in again")
	case subtle.ConstantTimeCompare([]byte(clientID), []byte(g.ClientID)) != 1:
		err = invalidGrant("code was issued to another client")
	case redirectURI != g.RedirectURI:
		err = invalidGrant("redirect_uri does not match the authorization request")
	case resource != "" && resource != g.Resource:
		err = &oauthError{"invalid_target", "resource does not match the authorization request"}
	case !pkceOK(verifier, g.Challenge):
		err = invalidGrant("PKCE code_verifier does not match the S256 code_challenge")
	}
	if err != nil {
		// The code is burnt either way: a failed guess must not leave it usable.
		if cerr := tx.Commit(); cerr != nil {
			return nil, fmt.Errorf("redeeming code: %w", cerr)
		}
		return nil, err
	}
	resp, err := s.issueTokens(ctx, tx, h, g.ClientID, g.ConnectionID, g.UserID, splitScopes(scopes), g.Resource)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("redeeming code: %w", err)
	}
	return resp, nil
}

func (s *Service) issueTokens(ctx context.Context, tx *sql.Tx, family, clientID, connID, userID string, scopes []string, resource string) (*TokenResponse, error) {
	at, rt := newSecret("osfa_"), newSecret("osfr_")
	now := s.now()
	sc := strings.Join(scopes, " ")
	for _, t := range []struct {
		secret, kind string
		ttl          time.Duration
	}{{at, "access", AccessTTL}, {rt, "refresh", RefreshTTL}} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO connect_tokens (hash, kind, family, client_id, connection_id, user_id, scopes, resource, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, hashSecret(t.secret), t.kind, family, clientID, connID, userID, sc, resource,
			now.Add(t.ttl).UnixMilli()); err != nil {
			return nil, fmt.Errorf("issuing tokens: %w", err)
		}
	}
	return &TokenResponse{AccessToken: at, TokenType: "Bearer", ExpiresIn: int64(AccessTTL / time.Second), RefreshToken: rt, Scope: sc}, nil
}

// refresh rotates a refresh token. Presenting one that was already used
// revokes its whole family: either the client or a thief holds a copy.
func (s *Service) refresh(ctx context.Context, token, clientID, resource, scope string) (*TokenResponse, error) {
	h := hashSecret(token)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("refreshing: %w", err)
	}
	defer tx.Rollback()
	var kind, family, cid, connID, userID, scopes, res, status string
	var expires int64
	var used, revoked int
	err = tx.QueryRowContext(ctx, `SELECT t.kind, t.family, t.client_id, t.connection_id, t.user_id, t.scopes, t.resource, t.expires_at, t.used, t.revoked,
		COALESCE(c.status, 'revoked') FROM connect_tokens t LEFT JOIN connect_connections c ON c.id = t.connection_id WHERE t.hash = ?`, h).
		Scan(&kind, &family, &cid, &connID, &userID, &scopes, &res, &expires, &used, &revoked, &status)
	if errors.Is(err, sql.ErrNoRows) || err == nil && kind != "refresh" {
		return nil, invalidGrant("unknown refresh token")
	}
	if err != nil {
		return nil, fmt.Errorf("refreshing: %w", err)
	}
	if used != 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE connect_tokens SET revoked = 1 WHERE family = ?`, family); err != nil {
			return nil, fmt.Errorf("revoking token family: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return nil, fmt.Errorf("revoking token family: %w", err)
		}
		return nil, invalidGrant("refresh token was already used; this sign-in is revoked, sign in again")
	}
	switch {
	case status == StatusRevoked:
		return nil, invalidGrant("the connection was revoked by its owner; ask them to connect this assistant again")
	case revoked != 0:
		return nil, invalidGrant("this sign-in was revoked (a refresh token was used twice, or an authorization code reused); sign in again")
	case s.now().UnixMilli() > expires:
		return nil, invalidGrant("refresh token expired; sign in again")
	case subtle.ConstantTimeCompare([]byte(clientID), []byte(cid)) != 1:
		return nil, invalidGrant("refresh token was issued to another client")
	case resource != "" && resource != res:
		return nil, &oauthError{"invalid_target", "resource does not match the original grant"}
	}
	granted := splitScopes(scopes)
	if scope != "" {
		want := splitScopes(scope)
		for _, w := range want {
			if !slices.Contains(granted, w) {
				return nil, &oauthError{"invalid_scope", "a refresh cannot add scope " + w}
			}
		}
		granted = want
	}
	if _, err := tx.ExecContext(ctx, `UPDATE connect_tokens SET used = 1 WHERE hash = ?`, h); err != nil {
		return nil, fmt.Errorf("refreshing: %w", err)
	}
	resp, err := s.issueTokens(ctx, tx, family, cid, connID, userID, granted, res)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("refreshing: %w", err)
	}
	return resp, nil
}

const tokenQuery = `SELECT kind, client_id, connection_id, user_id, scopes, resource, expires_at, revoked FROM connect_tokens WHERE hash = ?`

// ErrInvalidToken covers unknown, expired, revoked and other-resource tokens.
var ErrInvalidToken = errors.New("invalid token")

// VerifyToken maps a bearer token to its grant for resource.
func (s *Service) VerifyToken(ctx context.Context, token, resource string) (Grant, error) {
	var g Grant
	var kind, scopes string
	var expires int64
	var revoked int
	err := s.q.token.QueryRowContext(ctx, hashSecret(token)).Scan(&kind, &g.ClientID, &g.ConnectionID, &g.UserID, &scopes, &g.Resource, &expires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("%w: unknown token", ErrInvalidToken)
	}
	if err != nil {
		return g, fmt.Errorf("verifying token: %w", err)
	}
	switch {
	case kind != "access":
		return g, fmt.Errorf("%w: not an access token", ErrInvalidToken)
	case revoked != 0:
		return g, fmt.Errorf("%w: token revoked", ErrInvalidToken)
	case s.now().UnixMilli() > expires:
		return g, fmt.Errorf("%w: token expired", ErrInvalidToken)
	case g.Resource != resource:
		return g, fmt.Errorf("%w: token is for another resource", ErrInvalidToken)
	}
	g.Scopes = splitScopes(scopes)
	return g, nil
}
