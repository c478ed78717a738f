package teamclient

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
)

// callback is what the browser brings back to the loopback listener.
type callback struct {
	code string
	err  error
}

// Join signs the person in to the team server at serverURL: it checks the
// address is an osFoundry team server, opens the system browser at its
// sign-in, waits for the redirect on a loopback port, redeems the code
// and keeps the refresh token. Nothing is saved unless every step
// succeeded; ctx (or CancelJoin) abandons the wait.
func (c *Client) Join(ctx context.Context, serverURL string) (Status, error) {
	server, err := NormalizeServer(serverURL)
	if err != nil {
		return c.Status(ctx), err
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.JoinTimeout)
	defer cancel()
	c.mu.Lock()
	if c.joining != nil {
		c.mu.Unlock()
		return c.Status(ctx), ErrBusy
	}
	c.joining = cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.joining = nil
		c.mu.Unlock()
	}()

	d, err := c.Discover(ctx, server)
	if err != nil {
		return c.Status(ctx), err
	}
	tok, err := c.signIn(ctx, d)
	if err != nil {
		return c.Status(ctx), err
	}
	// the sign-in replaces any earlier one: that one is told first
	if old, err := c.loadConfig(); err == nil {
		c.revokeQuietly(ctx, old)
	}
	sec := c.o.Secrets
	if sec == nil {
		sec = ChooseSecrets(c.o.Dir)
	}
	if err := sec.Set(server, tok.RefreshToken); err != nil {
		return c.Status(ctx), fmt.Errorf("%w; the sign-in worked but cannot be kept on this computer", err)
	}
	cfg := config{Server: server, Discovery: d, TokenStore: sec.Where()}
	if err := c.saveConfig(cfg); err != nil {
		_ = sec.Delete(server)
		return c.Status(ctx), err
	}
	c.mu.Lock()
	c.access, c.expires = tok.AccessToken, c.o.Now().Add(time.Duration(tok.ExpiresIn)*time.Second)
	c.mu.Unlock()
	st := c.Status(ctx)
	return st, nil
}

// CancelJoin abandons a sign-in waiting for the browser.
func (c *Client) CancelJoin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.joining != nil {
		c.joining()
	}
}

// signIn runs the browser part: PKCE, a loopback listener on 127.0.0.1
// (RFC 8252 §7.3), the state checked in constant time, the code redeemed.
func (c *Client) signIn(ctx context.Context, d Discovery) (tokenResponse, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return tokenResponse{}, fmt.Errorf("opening a port on this computer for the sign-in: %w", err)
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://%s/callback", ln.Addr())
	verifier, state := randomString(), randomString()
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "redirect_uri": {redirect}, "state": {state},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"device_name": {c.o.Device}}

	got := make(chan callback, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		cb := readCallback(r.URL.Query(), state, d.Issuer)
		if cb.err != nil && cb.code == "" && errors.Is(cb.err, errForeign) {
			// a request that is not this sign-in's answer changes nothing
			http.Error(w, cb.err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = donePage().Execute(w, cb.err)
		select {
		case got <- cb:
		default:
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()

	if c.o.Open == nil {
		return tokenResponse{}, errors.New("this app cannot open a browser here")
	}
	if err := c.o.Open(d.AuthorizationEndpoint + "?" + q.Encode()); err != nil {
		return tokenResponse{}, fmt.Errorf("opening the browser for the sign-in: %w", err)
	}
	var cb callback
	select {
	case cb = <-got:
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return tokenResponse{}, errors.New("the sign-in in the browser took too long: press Sign in again")
		}
		return tokenResponse{}, errors.New("the sign-in was cancelled")
	}
	if cb.err != nil {
		return tokenResponse{}, cb.err
	}
	return c.tokenRequest(ctx, d.TokenEndpoint, url.Values{"grant_type": {"authorization_code"}, "code": {cb.code},
		"code_verifier": {verifier}, "redirect_uri": {redirect}})
}

var errForeign = errors.New("this is not the answer to the sign-in osFoundry started")

func readCallback(q url.Values, state, issuer string) callback {
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
		return callback{err: errForeign}
	}
	if iss := q.Get("iss"); iss != "" && iss != issuer {
		return callback{err: fmt.Errorf("%w: the answer came from %s, not %s", ErrDeclined, iss, issuer)}
	}
	if e := q.Get("error"); e != "" {
		if e == "access_denied" {
			return callback{err: fmt.Errorf("%w in the browser; press Sign in to try again", ErrDeclined)}
		}
		return callback{err: fmt.Errorf("%w by the team server (%s: %s)", ErrDeclined, e, q.Get("error_description"))}
	}
	if q.Get("code") == "" {
		return callback{err: fmt.Errorf("%w: the team server sent no code", ErrDeclined)}
	}
	return callback{code: q.Get("code")}
}

var donePage = lazy.HTML("done", `<!doctype html>
<meta charset="utf-8"><title>osFoundry</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}</style>
{{if .}}<h1>Not signed in</h1><p>{{.}}</p>{{else}}<h1>osFoundry desktop is signed in</h1>
<p>You can close this tab and go back to the app.</p>{{end}}
`)

func randomString() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("reading random bytes: %v", err))
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
