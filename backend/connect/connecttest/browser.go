// Package connecttest drives the Connected endpoint from outside, over
// real HTTP, the way a host and its user do: the owner's browser on the
// consent page, and a hand-written OAuth client doing discovery → DCR →
// PKCE → token. Tests, the TypeScript client test and `osfoundry-bench
// connect` use it, much like net/http/httptest.
package connecttest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/consentpage"
)

// Browser is the owner's browser: a cookie jar that never follows a
// redirect, so the caller sees where the server sends it.
type Browser struct {
	Base   string // server origin, sent as Origin on the consent POST
	Client *http.Client
}

// NewBrowser returns a browser with an empty cookie jar.
func NewBrowser(base string) *Browser {
	jar, _ := cookiejar.New(nil)
	return &Browser{Base: base, Client: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// SignIn opens a one-time sign-in link.
func (b *Browser) SignIn(link string) error {
	resp, err := b.Client.Get(link)
	if err != nil {
		return fmt.Errorf("signing in: %w", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusSeeOther {
		return fmt.Errorf("signing in: %s", resp.Status)
	}
	return nil
}

// Consent is the form the consent page offered.
type Consent = consentpage.Form

// OpenConsent GETs an authorization URL and reads the consent form.
func (b *Browser) OpenConsent(authURL string) (*Consent, error) {
	resp, err := b.Client.Get(authURL)
	if err != nil {
		return nil, fmt.Errorf("opening consent: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	page := string(body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("opening consent: %s (Location %q): %s", resp.Status, resp.Header.Get("Location"), page)
	}
	return consentpage.Parse(page)
}

// Submit POSTs the consent form; it returns the status and Location.
func (b *Browser) Submit(form url.Values) (int, string, error) {
	req, _ := http.NewRequest(http.MethodPost, b.Base+"/oauth/authorize", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.Base)
	resp, err := b.Client.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("sending consent: %w", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location"), nil
}

// Approve runs the whole consent for authURL: workspace ("" = the first
// offered), the Connection option labelled choice ("" = Create a new
// connection), ticked box, Connect. It returns the redirect back to the
// client, carrying code, state and iss.
func (b *Browser) Approve(authURL, workspace, choice string) (*url.URL, error) {
	c, err := b.OpenConsent(authURL)
	if err != nil {
		return nil, err
	}
	if workspace == "" && len(c.Workspaces) > 0 {
		workspace = c.Workspaces[0]
	}
	conn := "new"
	if choice != "" {
		v, ok := c.Connections[choice]
		if !ok {
			return nil, fmt.Errorf("consent page has no connection option %q (has %v)", choice, c.Connections)
		}
		conn = v
	}
	status, loc, err := b.Submit(url.Values{"request": {c.Request}, "csrf": {c.CSRF}, "workspace": {workspace},
		"connection": {conn}, "approve": {"yes"}, "action": {"connect"}})
	if err != nil {
		return nil, err
	}
	if status != http.StatusSeeOther {
		return nil, fmt.Errorf("consent refused: status %d", status)
	}
	return url.Parse(loc)
}
