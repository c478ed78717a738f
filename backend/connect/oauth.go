package connect

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/osfoundry/desktop/backend/lazy"
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

// errRegistrationsFull: the registrations held together reached their
// bound (DefaultMaxClients, DefaultMaxClientBytes); answered 503.
var errRegistrationsFull = &oauthError{"temporarily_unavailable",
	"this server holds as many client registrations as it keeps; registrations that never connect expire after 7 days, so try again later. " +
		"If you own this server, a registration flood from some web page or program is the likely cause"}

// client is a registered (public) OAuth client.
type client struct {
	ID           string
	Name         string
	RedirectURIs []string
}

// registerClient stores a public client (RFC 7591). Unknown metadata is
// ignored; the response echoes the redirect URIs, which the TypeScript SDK
// client requires.
func (s *Service) registerClient(ctx context.Context, m oauthex.ClientRegistrationMetadata, bound clientCap) (*oauthex.ClientRegistrationResponse, error) {
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
	if bound.count <= 0 {
		bound.count = DefaultMaxClients
	}
	if bound.bytes <= 0 {
		bound.bytes = DefaultMaxClientBytes
	}
	ok, err := s.st.InsertClientUnder(ctx, ClientRow{ID: id, Name: name, RedirectURIs: string(uris), Metadata: string(meta),
		CreatedAt: time.UnixMilli(now.UnixMilli())}, bound.count, bound.bytes)
	if err != nil {
		return nil, err // the store says what it was doing
	}
	if !ok {
		return nil, errRegistrationsFull
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
	if !hostRE().MatchString(u.Hostname()) {
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
var hostRE = lazy.Regexp(`^([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.?$|^[0-9A-Fa-f:.]+$`)

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
	r, err := s.st.Client(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading client: %w", err)
	}
	c := client{ID: r.ID, Name: cleanName(r.Name)} // also rows stored before names were cleaned
	if err := json.Unmarshal([]byte(r.RedirectURIs), &c.RedirectURIs); err != nil {
		return nil, fmt.Errorf("reading client redirect URIs: %w", err)
	}
	return &c, nil
}

var verifierRE = lazy.Regexp(`^[A-Za-z0-9\-._~]{43,128}$`)

// pkceOK checks an S256 code verifier against the stored challenge.
func pkceOK(verifier, challenge string) bool {
	if !verifierRE().MatchString(verifier) {
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
	now := time.UnixMilli(s.ms())
	// best effort; retried next consent
	_ = s.st.Purge(ctx, PurgeBefore{Codes: now.Add(-time.Hour), AuthRequests: now, Sessions: now, Tokens: now.Add(-24 * time.Hour),
		Activity: now.Add(-ActivityKeep), UnusedClients: now.Add(-UnusedClientTTL)})
}

// Purge drops what can no longer be used (see purge). A team server that
// mounts Handler instead of calling Start runs it on a timer itself.
func (s *Service) Purge(ctx context.Context) { s.purge(ctx) }

// ActivityKeep is how long Recent activity lines are kept.
const ActivityKeep = 90 * 24 * time.Hour

func (s *Service) issueCode(ctx context.Context, g codeGrant) (string, error) {
	s.purge(ctx)
	code := newSecret("osfc_")
	if err := s.st.InsertCode(ctx, CodeRow{Hash: hashSecret(code), ClientID: g.ClientID, ConnectionID: g.ConnectionID, UserID: g.UserID,
		RedirectURI: g.RedirectURI, Challenge: g.Challenge, Scopes: strings.Join(g.Scopes, " "), Resource: g.Resource,
		ExpiresAt: time.UnixMilli(s.ms()).Add(CodeTTL)}); err != nil {
		return "", fmt.Errorf("issuing code: %w", err)
	}
	return code, nil
}

// exchangeCode redeems a code once. A second use revokes what the first
// issued (RFC 6749 §4.1.2): the code may have been stolen.
func (s *Service) exchangeCode(ctx context.Context, code, clientID, redirectURI, verifier, resource string) (*TokenResponse, error) {
	h := hashSecret(code)
	var resp *TokenResponse
	var refusal error // committed with what the store changed, then returned
	err := s.st.Tokens(ctx, func(tx TokenTx) error {
		g, err := tx.Code(h)
		if errors.Is(err, ErrNotFound) {
			refusal = invalidGrant("unknown authorization code")
			return nil
		}
		if err != nil {
			return err
		}
		if g.Used {
			if err := tx.RevokeFamily(h); err != nil {
				return err
			}
			refusal = invalidGrant("authorization code was already used; tokens issued from it are revoked")
			return nil
		}
		// The code is burnt whatever follows: a failed guess must not leave it usable.
		if err := tx.MarkCodeUsed(h); err != nil {
			return err
		}
		switch {
		case s.expired(g.ExpiresAt):
			refusal = invalidGrant("authorization code expired; start the sign-in again")
		case subtle.ConstantTimeCompare([]byte(clientID), []byte(g.ClientID)) != 1:
			refusal = invalidGrant("code was issued to another client")
		case redirectURI != g.RedirectURI:
			refusal = invalidGrant("redirect_uri does not match the authorization request")
		case resource != "" && resource != g.Resource:
			refusal = &oauthError{"invalid_target", "resource does not match the authorization request"}
		case !pkceOK(verifier, g.Challenge):
			refusal = invalidGrant("PKCE code_verifier does not match the S256 code_challenge")
		}
		if refusal != nil {
			return nil
		}
		resp, err = s.issueTokens(tx, h, g.ClientID, g.ConnectionID, g.UserID, splitScopes(g.Scopes), g.Resource)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("redeeming code: %w", err)
	}
	if refusal != nil {
		return nil, refusal
	}
	return resp, nil
}

func (s *Service) issueTokens(tx TokenTx, family, clientID, connID, userID string, scopes []string, resource string) (*TokenResponse, error) {
	at, rt := newSecret("osfa_"), newSecret("osfr_")
	now := time.UnixMilli(s.ms())
	sc := strings.Join(scopes, " ")
	for _, t := range []struct {
		secret, kind string
		ttl          time.Duration
	}{{at, "access", AccessTTL}, {rt, "refresh", RefreshTTL}} {
		if err := tx.InsertToken(TokenRow{Hash: hashSecret(t.secret), Kind: t.kind, Family: family, ClientID: clientID, ConnectionID: connID,
			UserID: userID, Scopes: sc, Resource: resource, ExpiresAt: now.Add(t.ttl)}); err != nil {
			return nil, err
		}
	}
	return &TokenResponse{AccessToken: at, TokenType: "Bearer", ExpiresIn: int64(AccessTTL / time.Second), RefreshToken: rt, Scope: sc}, nil
}

// refresh rotates a refresh token. Presenting one that was already used
// revokes its whole family: either the client or a thief holds a copy.
func (s *Service) refresh(ctx context.Context, token, clientID, resource, scope string) (*TokenResponse, error) {
	h := hashSecret(token)
	var resp *TokenResponse
	var refusal error // committed with what the store changed, then returned
	err := s.st.Tokens(ctx, func(tx TokenTx) error {
		t, err := tx.Token(h)
		if errors.Is(err, ErrNotFound) || err == nil && t.Kind != "refresh" {
			refusal = invalidGrant("unknown refresh token")
			return nil
		}
		if err != nil {
			return err
		}
		if t.Used {
			if err := tx.RevokeFamily(t.Family); err != nil {
				return err
			}
			refusal = invalidGrant("refresh token was already used; this sign-in is revoked, sign in again")
			return nil
		}
		switch {
		case t.ConnectionStatus == StatusRevoked:
			refusal = invalidGrant("the connection was revoked by its owner; ask them to connect this assistant again")
		case t.Revoked:
			refusal = invalidGrant("this sign-in was revoked (the owner gave its connection to another assistant, a refresh token was used twice, or an authorization code was reused); sign in again")
		case s.expired(t.ExpiresAt):
			refusal = invalidGrant("refresh token expired; sign in again")
		case subtle.ConstantTimeCompare([]byte(clientID), []byte(t.ClientID)) != 1:
			refusal = invalidGrant("refresh token was issued to another client")
		case resource != "" && resource != t.Resource:
			refusal = &oauthError{"invalid_target", "resource does not match the original grant"}
		}
		if refusal != nil {
			return errRolledBack
		}
		granted := splitScopes(t.Scopes)
		if scope != "" {
			want := splitScopes(scope)
			for _, w := range want {
				if !slices.Contains(granted, w) {
					refusal = &oauthError{"invalid_scope", "a refresh cannot add scope " + w}
					return errRolledBack
				}
			}
			granted = want
		}
		if err := tx.MarkTokenUsed(h); err != nil {
			return err
		}
		resp, err = s.issueTokens(tx, t.Family, t.ClientID, t.ConnectionID, t.UserID, granted, t.Resource)
		return err
	})
	if refusal != nil {
		return nil, refusal
	}
	if err != nil {
		return nil, fmt.Errorf("refreshing: %w", err)
	}
	return resp, nil
}

// errRolledBack ends a token transaction that changed nothing worth
// keeping; the refusal beside it is what the caller answers.
var errRolledBack = errors.New("refused; nothing changed")

// ErrInvalidToken covers unknown, expired, revoked and other-resource tokens.
var ErrInvalidToken = errors.New("invalid token")

// VerifyToken maps a bearer token to its grant for resource.
func (s *Service) VerifyToken(ctx context.Context, token, resource string) (Grant, error) {
	var g Grant
	t, err := s.st.Token(ctx, hashSecret(token))
	if errors.Is(err, ErrNotFound) {
		return g, fmt.Errorf("%w: unknown token", ErrInvalidToken)
	}
	if err != nil {
		return g, fmt.Errorf("verifying token: %w", err)
	}
	g = Grant{ConnectionID: t.ConnectionID, UserID: t.UserID, ClientID: t.ClientID, Resource: t.Resource}
	switch {
	case t.Kind != "access":
		return g, fmt.Errorf("%w: not an access token", ErrInvalidToken)
	case t.Revoked:
		return g, fmt.Errorf("%w: token revoked", ErrInvalidToken)
	case s.expired(t.ExpiresAt):
		return g, fmt.Errorf("%w: token expired", ErrInvalidToken)
	case g.Resource != resource:
		return g, fmt.Errorf("%w: token is for another resource", ErrInvalidToken)
	}
	g.Scopes = splitScopes(t.Scopes)
	return g, nil
}
