package teamauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// desktopLogin is one desktop sign-in as the app starts it.
type desktopLogin struct {
	verifier, state, redirect string
}

func newDesktopLogin() desktopLogin {
	return desktopLogin{verifier: oauth2.GenerateVerifier(), state: newSecret("st_"), redirect: "http://127.0.0.1:53123/callback"}
}

func (d desktopLogin) authorizeURL(base string) string {
	sum := sha256.Sum256([]byte(d.verifier))
	q := url.Values{"response_type": {"code"}, "redirect_uri": {d.redirect}, "state": {d.state},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"device_name": {"Alice's <b>laptop</b>"}}
	return base + desktopAuthorize + "?" + q.Encode()
}

// confirmPage follows the authorize URL through the provider's sign-in and
// returns the confirmation page's request value.
func (b *browser) confirmPage(d desktopLogin, user string) (page, string) {
	b.t.Helper()
	p, loc := b.step("GET", d.authorizeURL(b.tm.URL), nil)
	if p.Code == http.StatusFound && strings.HasPrefix(loc, b.tm.URL+loginPath) {
		p, loc = b.step("GET", loc, nil)
		p = b.get(b.atProvider(loc, user)) // the callback sends the browser back to authorize
	} else if p.Code != http.StatusOK {
		b.t.Fatalf("authorize: %d to %q\n%s", p.Code, loc, p.Body)
	}
	m := regexp.MustCompile(`name="request" value="([^"]+)"`).FindStringSubmatch(p.Body)
	if m == nil {
		b.t.Fatalf("no confirmation form: %d\n%s", p.Code, p.Body)
	}
	return p, m[1]
}

func (b *browser) confirm(request, decision string) (page, string) {
	b.t.Helper()
	form := url.Values{"request": {request}, "decision": {decision}}
	return b.step("POST", b.tm.URL+desktopAuthorize, strings.NewReader(form.Encode()),
		"Content-Type", "application/x-www-form-urlencoded", "Origin", b.tm.URL)
}

func (tm *team) token(form url.Values) (int, TokenResponse, tokenError) {
	tm.t.Helper()
	resp, err := http.PostForm(tm.URL+desktopTokenPath, form)
	if err != nil {
		tm.t.Fatal(err)
	}
	defer resp.Body.Close()
	var ok TokenResponse
	var bad tokenError
	if resp.StatusCode == http.StatusOK {
		_ = json.NewDecoder(resp.Body).Decode(&ok)
	} else {
		_ = json.NewDecoder(resp.Body).Decode(&bad)
	}
	return resp.StatusCode, ok, bad
}

func (tm *team) desktopMe(access string) (int, DesktopMe) {
	tm.t.Helper()
	req, _ := http.NewRequest("GET", tm.URL+desktopMePath, nil)
	req.Header.Set("Authorization", "Bearer "+access)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tm.t.Fatal(err)
	}
	defer resp.Body.Close()
	var me DesktopMe
	_ = json.NewDecoder(resp.Body).Decode(&me)
	return resp.StatusCode, me
}

// The whole native-app sign-in, each step on the other replica: the
// confirmation names the device (escaped), the code comes back to the
// loopback address with the state and the issuer, and is redeemed once;
// the refresh token rotates and a used one revokes the family.
func TestDesktopSignInAcrossReplicas(t *testing.T) {
	tm := newTeam(t)
	ctx := context.Background()
	b := tm.browser()
	d := newDesktopLogin()
	p, req := b.confirmPage(d, "alice")
	if !strings.Contains(p.Body, "Sign in osFoundry desktop on Alice&#39;s &lt;b&gt;laptop&lt;/b&gt;?") || !strings.Contains(p.Body, "alice@example.com") {
		t.Fatalf("confirmation page:\n%s", p.Body)
	}
	_, loc := b.confirm(req, "allow")
	if !strings.HasPrefix(loc, d.redirect+"?") || mustQuery(t, loc, "state") != d.state || mustQuery(t, loc, "iss") != tm.URL {
		t.Fatalf("redirect back to the app: %q", loc)
	}
	code := mustQuery(t, loc, "code")
	var clear int
	if err := tm.pool.QueryRow(ctx, `SELECT count(*) FROM teamauth_desktop_codes WHERE hash = $1`, code).Scan(&clear); err != nil || clear != 0 {
		t.Fatalf("a code stored in clear: %d %v", clear, err)
	}
	redeem := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {d.verifier}, "redirect_uri": {d.redirect}}
	st, tok, e := tm.token(redeem)
	if st != http.StatusOK || tok.AccessToken == "" || tok.RefreshToken == "" || tok.ExpiresIn != int64(DefaultAccessTTL/time.Second) {
		t.Fatalf("redeeming: %d %+v %+v", st, tok, e)
	}
	st, me := tm.desktopMe(tok.AccessToken)
	if st != http.StatusOK || me.Person.Email != "alice@example.com" || me.Device != "Alice's <b>laptop</b>" || me.Workspaces == nil {
		t.Fatalf("me: %d %+v", st, me)
	}
	// rotation: the new pair works, the old refresh token is spent
	st, tok2, e := tm.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}})
	if st != http.StatusOK || tok2.RefreshToken == tok.RefreshToken {
		t.Fatalf("rotating: %d %+v", st, e)
	}
	if st, _ := tm.desktopMe(tok2.AccessToken); st != http.StatusOK {
		t.Fatalf("the rotated access token: %d", st)
	}
	st, _, e = tm.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}})
	if st != http.StatusBadRequest || e.Code != "invalid_grant" || !strings.Contains(e.Description, "already used") {
		t.Fatalf("a used refresh token again: %d %+v", st, e)
	}
	if st, _ := tm.desktopMe(tok2.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("after reuse the family still works: %d", st)
	}
	if st, _, _ := tm.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok2.RefreshToken}}); st != http.StatusBadRequest {
		t.Fatalf("the newest refresh token of a revoked family: %d", st)
	}
	// the code is good once; its replay is refused
	if st, _, e := tm.token(redeem); st != http.StatusBadRequest || !strings.Contains(e.Description, "already used") {
		t.Fatalf("code replay: %d %+v", st, e)
	}
	if tm.served[0].Load() == 0 || tm.served[1].Load() == 0 {
		t.Fatalf("one replica served everything: %d/%d", tm.served[0].Load(), tm.served[1].Load())
	}
}

// Requests that must never produce a code.
func TestDesktopAuthorizeRefusals(t *testing.T) {
	tm := newTeam(t)
	b := tm.browser()
	b.signIn("alice")
	for _, c := range []struct{ name, key, value, want string }{
		{"another host", "redirect_uri", "https://evil.example/cb", "must be http://127.0.0.1"},
		{"localhost by name", "redirect_uri", "http://localhost:5000/cb", "loopback address"},
		{"another loopback address", "redirect_uri", "http://127.0.0.2:5000/cb", "loopback address"},
		{"no port", "redirect_uri", "http://127.0.0.1/cb", "no port"},
		{"plain PKCE", "code_challenge_method", "plain", "S256 is required"},
		{"no challenge", "code_challenge", "", "code_challenge"},
		{"no state", "state", "", "no state"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, loc := b.step("GET", withQuery(t, newDesktopLogin().authorizeURL(tm.URL), c.key, c.value), nil)
			if p.Code != http.StatusBadRequest || loc != "" || !strings.Contains(p.Body, c.want) {
				t.Fatalf("%d to %q, want 400 with %q:\n%s", p.Code, loc, c.want, p.Body)
			}
		})
	}
	_, req := b.confirmPage(newDesktopLogin(), "alice")
	if p, loc := tm.browser().confirm(req, "allow"); p.Code != http.StatusForbidden || loc != "" {
		t.Fatalf("a confirmation from another browser: %d to %q", p.Code, loc)
	}
	_, req = b.confirmPage(newDesktopLogin(), "alice")
	form := url.Values{"request": {req}, "decision": {"allow"}}
	if p, loc := b.step("POST", tm.URL+desktopAuthorize, strings.NewReader(form.Encode()),
		"Content-Type", "application/x-www-form-urlencoded", "Origin", "https://evil.example"); p.Code != http.StatusForbidden || loc != "" {
		t.Fatalf("a cross-site confirmation: %d to %q", p.Code, loc)
	}
	d := newDesktopLogin()
	_, req = b.confirmPage(d, "alice")
	if _, loc := b.confirm(req, "deny"); mustQuery(t, loc, "error") != "access_denied" || mustQuery(t, loc, "code") != "" {
		t.Fatalf("cancel: %q", loc)
	}
}

// Redemptions and tokens that must be refused.
func TestDesktopTokenRefusals(t *testing.T) {
	tm := newTeam(t)
	b := tm.browser()
	code := func(d desktopLogin) string {
		_, req := b.confirmPage(d, "alice")
		_, loc := b.confirm(req, "allow")
		return mustQuery(t, loc, "code")
	}
	d := newDesktopLogin()
	if st, _, e := tm.token(url.Values{"grant_type": {"authorization_code"}, "code": {code(d)}, "code_verifier": {oauth2.GenerateVerifier()}, "redirect_uri": {d.redirect}}); st != 400 || !strings.Contains(e.Description, "PKCE") {
		t.Fatalf("wrong verifier: %d %+v", st, e)
	}
	if st, _, e := tm.token(url.Values{"grant_type": {"authorization_code"}, "code": {code(d)}, "code_verifier": {d.verifier}, "redirect_uri": {"http://127.0.0.1:1/other"}}); st != 400 || !strings.Contains(e.Description, "redirect_uri") {
		t.Fatalf("other redirect: %d %+v", st, e)
	}
	c := code(d)
	tm.clock.Advance(desktopCodeTTL + time.Second)
	if st, _, e := tm.token(url.Values{"grant_type": {"authorization_code"}, "code": {c}, "code_verifier": {d.verifier}, "redirect_uri": {d.redirect}}); st != 400 || !strings.Contains(e.Description, "expired") {
		t.Fatalf("late code: %d %+v", st, e)
	}
	tm.clock.Reset()
	st, tok, _ := tm.token(url.Values{"grant_type": {"authorization_code"}, "code": {code(d)}, "code_verifier": {d.verifier}, "redirect_uri": {d.redirect}})
	if st != 200 {
		t.Fatal(st)
	}
	tm.clock.Advance(DefaultAccessTTL + time.Second)
	if st, _ := tm.desktopMe(tok.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("an expired access token: %d", st)
	}
	if st, _ := tm.desktopMe("osfda_wrong"); st != http.StatusUnauthorized {
		t.Fatalf("a wrong access token: %d", st)
	}
	// sign-out revokes the family from either token
	resp, err := http.PostForm(tm.URL+desktopRevokePath, url.Values{"token": {tok.RefreshToken}})
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("revoke: %v %v", resp, err)
	}
	resp.Body.Close()
	if st, _, e := tm.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}}); st != 400 || !strings.Contains(e.Description, "signed out") {
		t.Fatalf("refresh after sign-out: %d %+v", st, e)
	}
	// an operator signs the person out everywhere: desktops too
	st, tok, _ = tm.token(url.Values{"grant_type": {"authorization_code"}, "code": {code(d)}, "code_verifier": {d.verifier}, "redirect_uri": {d.redirect}})
	if st != 200 {
		t.Fatal(st)
	}
	me := b.me()
	if err := tm.replicas[1].SignOutEverywhere(context.Background(), me.ID); err != nil {
		t.Fatal(err)
	}
	if st, _ := tm.desktopMe(tok.AccessToken); st != http.StatusUnauthorized {
		t.Fatalf("a desktop after signing out everywhere: %d", st)
	}
	if st, _, e := tm.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}}); st != 400 || !strings.Contains(e.Description, "signed out") {
		t.Fatalf("refresh after signing out everywhere: %d %+v", st, e)
	}
	tm.clock.Advance(DefaultRefreshTTL)
	if err := tm.replicas[0].Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := tm.pool.QueryRow(context.Background(), `SELECT count(*) FROM teamauth_desktop_tokens`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("tokens left after their refresh expired: %d %v", left, err)
	}
}
