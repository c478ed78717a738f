package teamclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// discoveryPath is teamauth.DiscoveryPath (not imported: the desktop
// never links the server's packages).
const discoveryPath = "/.well-known/osfoundry-team"

// Discovery is the server's description of itself.
type Discovery struct {
	Server                string `json:"server"`
	DesktopAPI            int    `json:"desktop_api"`
	MinDesktopAPI         int    `json:"min_desktop_api"`
	Issuer                string `json:"issuer"`
	AuthorizationEndpoint string `json:"authorization_endpoint"`
	TokenEndpoint         string `json:"token_endpoint"`
	MeEndpoint            string `json:"me_endpoint"`
	RevocationEndpoint    string `json:"revocation_endpoint"`
}

// NormalizeServer turns what a person types into an origin: a bare host
// gets https://; a path, query or credentials are refused.
func NormalizeServer(raw string) (string, error) {
	raw = strings.TrimRight(strings.TrimSpace(raw), "/")
	if raw == "" {
		return "", errors.New("enter the team server's address, like https://team.example.com")
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("%q is not a web address: enter one like https://team.example.com", raw)
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("enter only the team server's address, like %s://%s, without a path", u.Scheme, u.Host)
	}
	return u.Scheme + "://" + u.Host, nil
}

// Discover asks server (an origin) whether it is an osFoundry team server
// this app can join.
func (c *Client) Discover(ctx context.Context, server string) (Discovery, error) {
	var d Discovery
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, server+discoveryPath, nil)
	if err != nil {
		return d, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.o.HTTP.Do(req)
	if err != nil {
		return d, unreachable(server, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	notOurs := func(why string) error {
		return fmt.Errorf("%w: %s %s; check the address your team's administrator gave you", ErrNotTeamServer, server, why)
	}
	if resp.StatusCode != http.StatusOK {
		return d, notOurs(fmt.Sprintf("answered %s, not as an osFoundry team server", resp.Status))
	}
	if err := json.Unmarshal(body, &d); err != nil || d.Server != "osfoundry-team" {
		return d, notOurs("is a web server, but not an osFoundry team server")
	}
	if d.MinDesktopAPI > c.o.APIVersion {
		return d, fmt.Errorf("%w: %s speaks version %d of the desktop sign-in and this app speaks %d; update osFoundry, then sign in again",
			ErrNeedsUpdate, server, d.MinDesktopAPI, c.o.APIVersion)
	}
	// every endpoint must be on the server the person named: a document
	// that sends the code or the tokens elsewhere is not followed
	for _, e := range []string{d.Issuer + "/", d.AuthorizationEndpoint, d.TokenEndpoint, d.MeEndpoint, d.RevocationEndpoint} {
		if !strings.HasPrefix(e, server+"/") {
			return d, notOurs("describes endpoints on another address (" + e + ")")
		}
	}
	return d, nil
}

func unreachable(server string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Timeout() {
		return fmt.Errorf("%w: %s did not answer in time; check your network, or try again later", ErrUnreachable, server)
	}
	return fmt.Errorf("%w: %s (%v); check the address and your network", ErrUnreachable, server, rootCause(err))
}

// rootCause drops url.Error's repetition of the method and address.
func rootCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
