package teamauth

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/lazy"
)

// Desktops sign in as native apps (RFC 8252): the app opens
// /auth/desktop/authorize in the system browser with a PKCE challenge and
// a loopback redirect, the person signs in with the company's provider
// (the web session flow) and confirms the device, and the browser carries
// a one-time code back to the app's loopback listener. The app redeems it
// at /auth/desktop/token for a short access token and a refresh token that
// rotates on every use.
const (
	DiscoveryPath      = "/.well-known/osfoundry-team"
	desktopAuthorize   = "/auth/desktop/authorize"
	desktopTokenPath   = "/auth/desktop/token"
	desktopMePath      = "/auth/desktop/me"
	desktopRevokePath  = "/auth/desktop/revoke"
	desktopCodeTTL     = 2 * time.Minute
	maxDeviceName      = 80
	DefaultAccessTTL   = 15 * time.Minute
	DefaultRefreshTTL  = 30 * 24 * time.Hour
	desktopFamilyLock  = 0x6f7366_64736b // "osf" "dsk"
	desktopServerKind  = "osfoundry-team"
	desktopTokenPrefix = "osfda_"
	desktopRefreshPfx  = "osfdr_"
)

// DesktopAPI is the version of the desktop sign-in and /auth/desktop/me
// this server speaks; MinDesktopAPI the oldest a desktop may speak to be
// served. A desktop that knows less than MinDesktopAPI says to update it.
const (
	DesktopAPI    = 1
	MinDesktopAPI = 1
)

// Discovery is what /.well-known/osfoundry-team answers: it tells a
// desktop that this is an osFoundry team server and where to sign in.
type Discovery struct {
	Server                string `json:"server"` // always "osfoundry-team"
	DesktopAPI            int    `json:"desktop_api"`
	MinDesktopAPI         int    `json:"min_desktop_api"`
	Issuer                string `json:"issuer"`
	AuthorizationEndpoint string `json:"authorization_endpoint"`
	TokenEndpoint         string `json:"token_endpoint"`
	MeEndpoint            string `json:"me_endpoint"`
	RevocationEndpoint    string `json:"revocation_endpoint"`
}

func (s *Service) registerDesktop(mount func(string, http.Handler)) {
	mount("GET "+DiscoveryPath, http.HandlerFunc(s.handleDiscovery))
	mount("GET "+desktopAuthorize, http.HandlerFunc(s.handleDesktopAuthorize))
	mount("POST "+desktopAuthorize, http.HandlerFunc(s.handleDesktopConfirm))
	mount("POST "+desktopTokenPath, http.HandlerFunc(s.handleDesktopToken))
	mount("GET "+desktopMePath, http.HandlerFunc(s.handleDesktopMe))
	mount("POST "+desktopRevokePath, http.HandlerFunc(s.handleDesktopRevoke))
}

func (s *Service) handleDiscovery(w http.ResponseWriter, _ *http.Request) {
	p := s.public.String()
	writeJSON(w, http.StatusOK, Discovery{Server: desktopServerKind, DesktopAPI: DesktopAPI, MinDesktopAPI: MinDesktopAPI,
		Issuer: p, AuthorizationEndpoint: p + desktopAuthorize, TokenEndpoint: p + desktopTokenPath,
		MeEndpoint: p + desktopMePath, RevocationEndpoint: p + desktopRevokePath})
}

// loopbackRedirect accepts only http://127.0.0.1:PORT/… or
// http://[::1]:PORT/… (RFC 8252 §7.3): a code can then reach only a
// program on the person's own machine. "localhost" is refused, since a
// hosts file or resolver may point it elsewhere (§8.3).
func loopbackRedirect(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || raw == "" || len(raw) > 300 {
		return nil, errors.New("the redirect address is missing or cannot be read")
	}
	if u.Scheme != "http" || u.User != nil || u.Fragment != "" || u.Opaque != "" {
		return nil, errors.New("the redirect address must be http://127.0.0.1:<port>/… on this computer")
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil || !ip.IsLoopback() || (ip.To4() != nil && !ip.Equal(net.IPv4(127, 0, 0, 1))) {
		return nil, errors.New("the redirect address must be the loopback address 127.0.0.1 or [::1], not " + u.Hostname())
	}
	if u.Port() == "" {
		return nil, errors.New("the redirect address names no port")
	}
	return u, nil
}

// validChallenge is an S256 challenge: 43 characters of base64url.
func validChallenge(c string) bool {
	if len(c) != 43 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(c)
	return err == nil
}

func pkceMatches(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return sameSecret(base64.RawURLEncoding.EncodeToString(sum[:]), challenge)
}

// deviceName keeps a printable, short name; the page escapes it anyway.
func deviceName(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || !utf8.ValidString(v) {
		return "an unnamed computer"
	}
	v = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, v)
	if utf8.RuneCountInString(v) > maxDeviceName {
		v = string([]rune(v)[:maxDeviceName]) + "…"
	}
	return v
}

// desktopRequest is what the authorize URL asks for.
type desktopRequest struct {
	redirect         *url.URL
	challenge, state string
	device           string
}

func parseDesktopRequest(q url.Values) (desktopRequest, error) {
	var d desktopRequest
	red, err := loopbackRedirect(q.Get("redirect_uri"))
	if err != nil {
		return d, err
	}
	d.redirect = red
	switch {
	case q.Get("response_type") != "" && q.Get("response_type") != "code":
		return d, errors.New("only response_type=code is served")
	case q.Get("code_challenge_method") != "S256":
		return d, errors.New("PKCE with code_challenge_method=S256 is required")
	case !validChallenge(q.Get("code_challenge")):
		return d, errors.New("the PKCE code_challenge is missing or is not an S256 challenge")
	case q.Get("state") == "" || len(q.Get("state")) > 200:
		return d, errors.New("the request has no state (or one longer than 200 characters)")
	}
	d.challenge, d.state, d.device = q.Get("code_challenge"), q.Get("state"), deviceName(q.Get("device_name"))
	return d, nil
}

// handleDesktopAuthorize checks the request, sends a signed-out browser
// through the provider first (coming back here), then shows the
// confirmation page. A bad request is shown in the browser, never sent to
// the redirect address.
func (s *Service) handleDesktopAuthorize(w http.ResponseWriter, r *http.Request) {
	d, err := parseDesktopRequest(r.URL.Query())
	if err != nil {
		s.desktopPage(w, http.StatusBadRequest, pageData{Error: "This sign-in link from osFoundry desktop cannot be used: " + err.Error() + ". Start again from the app's Settings → Team."})
		return
	}
	p, err := s.SessionPerson(r)
	if errors.Is(err, ErrNoSession) {
		http.Redirect(w, r, s.LoginURL(r.URL.RequestURI()), http.StatusFound)
		return
	}
	if err != nil {
		s.serverError(w, err)
		return
	}
	secret := newSecret("osfdq_")
	now := s.now()
	if _, err := s.db.Exec(r.Context(), `INSERT INTO teamauth_desktop_requests (hash, session_hash, person_id, redirect_uri, challenge, state, device, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, hashSecret(secret), s.SessionKey(r), p.ID, d.redirect.String(), d.challenge, d.state, d.device,
		now.Add(s.cfg.LoginTTL)); err != nil {
		s.serverError(w, fmt.Errorf("storing the desktop sign-in: %w", err))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	// the page must not be framed: a confirmation click is the whole consent
	w.Header().Set("Content-Security-Policy", "frame-ancestors 'none'")
	w.Header().Set("X-Frame-Options", "DENY")
	s.desktopPage(w, http.StatusOK, pageData{Device: d.device, Person: p, Request: secret, Action: desktopAuthorize, Server: s.public.Host})
}

// handleDesktopConfirm is the confirmation page's answer: only the web
// session the page was shown to may give it, once.
func (s *Service) handleDesktopConfirm(w http.ResponseWriter, r *http.Request) {
	if !s.SameOrigin(r) {
		http.Error(w, "This confirmation came from another site: start again from osFoundry desktop's Settings → Team", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "The confirmation cannot be read: start again from osFoundry desktop", http.StatusBadRequest)
		return
	}
	secret := r.PostForm.Get("request")
	var row struct {
		session, person, redirect, challenge, state, device string
		expires                                             time.Time
	}
	err := s.db.QueryRow(r.Context(), `DELETE FROM teamauth_desktop_requests WHERE hash = $1
		RETURNING session_hash, person_id, redirect_uri, challenge, state, device, expires_at`, hashSecret(secret)).
		Scan(&row.session, &row.person, &row.redirect, &row.challenge, &row.state, &row.device, &row.expires)
	if errors.Is(err, pgx.ErrNoRows) || secret == "" {
		s.desktopPage(w, http.StatusBadRequest, pageData{Error: "This confirmation is unknown or was already answered. Start again from osFoundry desktop's Settings → Team."})
		return
	}
	if err != nil {
		s.serverError(w, fmt.Errorf("reading the desktop sign-in: %w", err))
		return
	}
	if !sameSecret(s.SessionKey(r), row.session) {
		s.desktopPage(w, http.StatusForbidden, pageData{Error: "This confirmation was shown to another sign-in. Start again from osFoundry desktop's Settings → Team."})
		return
	}
	if !s.now().Before(row.expires) {
		s.desktopPage(w, http.StatusBadRequest, pageData{Error: "This confirmation waited too long. Start again from osFoundry desktop's Settings → Team."})
		return
	}
	back, _ := url.Parse(row.redirect)
	q := back.Query()
	q.Set("state", row.state)
	q.Set("iss", s.public.String()) // RFC 9207: the app checks who answered
	if r.PostForm.Get("decision") != "allow" {
		q.Set("error", "access_denied")
		q.Set("error_description", "the person declined the sign-in")
		back.RawQuery = q.Encode()
		http.Redirect(w, r, back.String(), http.StatusSeeOther)
		return
	}
	code := newSecret("osfdc_")
	if _, err := s.db.Exec(r.Context(), `INSERT INTO teamauth_desktop_codes (hash, person_id, redirect_uri, challenge, device, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, hashSecret(code), row.person, row.redirect, row.challenge, row.device, s.now().Add(desktopCodeTTL)); err != nil {
		s.serverError(w, fmt.Errorf("storing the desktop code: %w", err))
		return
	}
	s.log.Info("desktop sign-in confirmed", "person", row.person, "device", row.device)
	q.Set("code", code)
	back.RawQuery = q.Encode()
	http.Redirect(w, r, back.String(), http.StatusSeeOther)
}

type pageData struct {
	Error, Device, Request, Action, Server string
	Person                                 Person
}

var desktopTmpl = lazy.HTML("desktop", `<!doctype html>
<meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>osFoundry desktop sign-in</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}</style>
{{if .Error}}<h1>Sign-in not possible</h1><p>{{.Error}}</p>{{else}}
<h1>Sign in osFoundry desktop on {{.Device}}?</h1>
<p>You are signed in to {{.Server}} as <strong>{{.Person.Name}}</strong> ({{.Person.Email}}).
The app on {{.Device}} will act as you on this team server until you sign it out there.</p>
<p>Only continue if you just pressed Sign in in osFoundry desktop.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="request" value="{{.Request}}">
<button name="decision" value="allow">Sign in</button>
<button name="decision" value="deny">Cancel</button>
</form>{{end}}
`)

func (s *Service) desktopPage(w http.ResponseWriter, code int, d pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_ = desktopTmpl().Execute(w, d)
}
