package rulesupdate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// maxBundle bounds a download: every bundled rules file together is a few
// KB, so anything near this is not a rules bundle.
const maxBundle = 4 << 20

// Options for one update.
type Options struct {
	URL  string // "" = DefaultURL
	Home string // the override folder is under it
	Key  string // base64 public key; "" = ProductionPublicKey
	// Client fetches the bundle; nil: a client with a 30 s limit.
	Client *http.Client
	Now    func() time.Time // nil: time.Now
}

// Update fetches, verifies, checks and installs a bundle. Every error says
// what went wrong; nothing is changed unless it returns nil.
func Update(ctx context.Context, o Options) (Installed, error) {
	if o.URL == "" {
		o.URL = DefaultURL
	}
	if o.Key == "" {
		o.Key = ProductionPublicKey
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Home == "" {
		return Installed{}, errors.New("no home folder to install the rules in")
	}
	key, err := ParseKey(o.Key)
	if err != nil {
		return Installed{}, err
	}
	data, err := Fetch(ctx, o.Client, o.URL)
	if err != nil {
		return Installed{}, err
	}
	p, err := Open(data, key)
	if err != nil {
		return Installed{}, fmt.Errorf("%s: %w", o.URL, err)
	}
	in, err := Install(o.Home, p, o.URL, o.Now())
	if err != nil {
		return Installed{}, fmt.Errorf("%w; %w", err, ErrUnchanged)
	}
	return in, nil
}

// CheckURL accepts https, and plain http only to this machine (a local
// mirror or a test server): the signature protects the content, but a
// bundle address should not leak what the app asks for.
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%q is not a web address; give an https:// address of a rules bundle", raw)
	}
	switch u.Scheme {
	case "https":
		return u, nil
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return u, nil
		}
		return nil, fmt.Errorf("%s: use an https:// address (plain http is only for this machine)", raw)
	}
	return nil, fmt.Errorf("%s: use an https:// address", raw)
}

// Fetch downloads a bundle, bounded in size and time.
func Fetch(ctx context.Context, c *http.Client, raw string) ([]byte, error) {
	u, err := CheckURL(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrUnchanged)
	}
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second}
	}
	// Every address a redirect leads to meets the rule the first one did:
	// otherwise an https address could hand the request on to plain http
	// off this machine.
	cc := *c
	next := c.CheckRedirect
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if _, err := CheckURL(req.URL.String()); err != nil {
			return fmt.Errorf("redirected: %w", err)
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	c = &cc
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", raw, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		// Settings shows this line as is: say what to do, with the cause
		// (not the whole "Get <url>: dial tcp …" chain) for whoever helps.
		cause := err
		var ue *url.Error
		if errors.As(err, &ue) {
			cause = ue.Err
		}
		return nil, fmt.Errorf("could not reach %s (%v): check the address and your network connection, then try again; %w", u.Host, cause, ErrUnchanged)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: the server answered %s; %w", raw, resp.Status, ErrUnchanged)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBundle+1))
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w; %w", raw, err, ErrUnchanged)
	}
	if len(data) > maxBundle {
		return nil, fmt.Errorf("fetching %s: larger than %d MB, not a rules bundle; %w", raw, maxBundle>>20, ErrUnchanged)
	}
	return data, nil
}
