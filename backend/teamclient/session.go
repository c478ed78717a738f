package teamclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// config is team.json: the joined server and what it last said; no secret.
type config struct {
	Server     string      `json:"server"`
	Discovery  Discovery   `json:"discovery"`
	TokenStore string      `json:"token_store"`
	Person     Person      `json:"person"`
	Workspaces []Workspace `json:"workspaces"`
}

var errNotJoined = errors.New("not joined")

func (c *Client) loadConfig() (config, error) {
	var cfg config
	data, err := os.ReadFile(c.configPath())
	if errors.Is(err, os.ErrNotExist) {
		return cfg, errNotJoined
	}
	if err != nil {
		return cfg, fmt.Errorf("reading the team settings: %w", err)
	}
	if err := json.Unmarshal(data, &cfg); err != nil || cfg.Server == "" {
		return cfg, fmt.Errorf("the team settings in %s cannot be read: sign in again", c.configPath())
	}
	return cfg, nil
}

func (c *Client) saveConfig(cfg config) error {
	data, _ := json.MarshalIndent(cfg, "", "  ")
	if err := os.MkdirAll(c.o.Dir, 0o700); err != nil {
		return fmt.Errorf("saving the team settings: %w", err)
	}
	tmp := c.configPath() + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("saving the team settings: %w", err)
	}
	if err := os.Rename(tmp, c.configPath()); err != nil {
		return fmt.Errorf("saving the team settings: %w", err)
	}
	return nil
}

// tokenResponse is the token endpoint's answer, or its error.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Error        string `json:"error"`
	Description  string `json:"error_description"`
}

// errGrant is the server refusing a code or refresh token: the sign-in
// is over (expired, revoked, reused).
type errGrant struct{ why string }

func (e *errGrant) Error() string {
	return "the team server ended this sign-in (" + e.why + "): sign in again"
}

func (c *Client) tokenRequest(ctx context.Context, endpoint string, form url.Values) (tokenResponse, error) {
	var t tokenResponse
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return t, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.o.HTTP.Do(req)
	if err != nil {
		return t, unreachable(serverOf(endpoint), err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = json.Unmarshal(body, &t)
	switch {
	case resp.StatusCode == http.StatusOK && t.AccessToken != "" && t.RefreshToken != "":
		return t, nil
	case resp.StatusCode == http.StatusBadRequest && t.Error == "invalid_grant":
		return t, &errGrant{t.Description}
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return t, fmt.Errorf("%w: %s answered %s; try again in a moment", ErrUnreachable, serverOf(endpoint), resp.Status)
	}
	return t, fmt.Errorf("%w: the sign-in endpoint answered %s (%s)", ErrNotTeamServer, resp.Status, t.Description)
}

func serverOf(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint
	}
	return u.Scheme + "://" + u.Host
}

// Status asks the server who the app is signed in as, refreshing the
// access token when needed, and tells the emitter when the answer
// changed. Without a saved team it answers signed out at once.
func (c *Client) Status(ctx context.Context) Status {
	st := c.status(ctx)
	c.emit(st)
	return st
}

func (c *Client) status(ctx context.Context) Status {
	cfg, err := c.loadConfig()
	if errors.Is(err, errNotJoined) {
		return Status{State: SignedOut}
	}
	if err != nil {
		return Status{State: SignedOut, Message: err.Error()}
	}
	st := Status{Server: cfg.Server, TokenStore: cfg.TokenStore, Person: cfg.Person, Workspaces: cfg.Workspaces}
	me, err := c.me(ctx, cfg)
	var eg *errGrant
	switch {
	case err == nil:
		st.State, st.Person, st.Workspaces = Connected, me.Person, me.Workspaces
		if st.Person != cfg.Person || !sameWorkspaces(cfg.Workspaces, me.Workspaces) {
			cfg.Person, cfg.Workspaces = me.Person, me.Workspaces
			_ = c.saveConfig(cfg) // a cache for offline display only
		}
	case errors.As(err, &eg), errors.Is(err, ErrNoSecret):
		st.State, st.Message = Expired, err.Error()
	case errors.Is(err, ErrNeedsUpdate):
		st.State, st.Message = Offline, err.Error()
	default:
		st.State, st.Message = Offline, err.Error()
	}
	st.Team = teamName(st)
	if st.Workspaces == nil {
		st.Workspaces = []Workspace{}
	}
	return st
}

func sameWorkspaces(a, b []Workspace) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func teamName(st Status) string {
	var names []string
	for _, w := range st.Workspaces {
		names = append(names, w.Name)
	}
	if len(names) > 0 {
		return strings.Join(names, ", ")
	}
	return strings.TrimPrefix(strings.TrimPrefix(st.Server, "https://"), "http://")
}

type meAnswer struct {
	Person     Person      `json:"person"`
	Workspaces []Workspace `json:"workspaces"`
	DesktopAPI int         `json:"desktop_api"`
}

// me reads /auth/desktop/me, refreshing the access token first when it
// is missing or about to expire, and once more after a 401.
func (c *Client) me(ctx context.Context, cfg config) (meAnswer, error) {
	var out meAnswer
	for attempt := 0; attempt < 2; attempt++ {
		access, err := c.accessToken(ctx, cfg, attempt > 0)
		if err != nil {
			return out, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cfg.Discovery.MeEndpoint, nil)
		if err != nil {
			return out, err
		}
		req.Header.Set("Authorization", "Bearer "+access)
		resp, err := c.o.HTTP.Do(req)
		if err != nil {
			return out, unreachable(cfg.Server, err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusUnauthorized:
			continue
		case resp.StatusCode != http.StatusOK:
			return out, fmt.Errorf("%w: %s answered %s", ErrUnreachable, cfg.Server, resp.Status)
		}
		if err := json.Unmarshal(body, &out); err != nil {
			return out, fmt.Errorf("%w: %s answered something this app cannot read", ErrNotTeamServer, cfg.Server)
		}
		return out, nil
	}
	return out, &errGrant{"the server no longer accepts this computer's tokens"}
}

// accessToken is the access token in memory, or a new one from the
// refresh token. Refreshes take turns (c.mu): two at once would present
// the same refresh token twice, which the server treats as theft.
func (c *Client) accessToken(ctx context.Context, cfg config, stale bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !stale && c.access != "" && c.o.Now().Add(30*time.Second).Before(c.expires) {
		return c.access, nil
	}
	c.access = ""
	sec := c.secretsFor(cfg)
	refresh, err := sec.Get(cfg.Server)
	if err != nil {
		return "", err
	}
	t, err := c.tokenRequest(ctx, cfg.Discovery.TokenEndpoint, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}})
	if err != nil {
		return "", err
	}
	// the old token is spent: keep the new one before anything else
	if err := sec.Set(cfg.Server, t.RefreshToken); err != nil {
		return "", err
	}
	c.access, c.expires = t.AccessToken, c.o.Now().Add(time.Duration(t.ExpiresIn)*time.Second)
	return c.access, nil
}

// secretsFor is where cfg's token was kept: the configured store in
// tests, else the keychain or the file, as when it was saved.
func (c *Client) secretsFor(cfg config) Secrets {
	if c.o.Secrets != nil {
		return c.o.Secrets
	}
	if strings.HasPrefix(cfg.TokenStore, "a file") {
		return TokenFile{Path: filepath.Join(c.o.Dir, "team-token")}
	}
	return Keychain{}
}

// SignOut tells the server to end this computer's sign-in and removes the
// token and the team settings. Offline, the local copy is removed anyway
// and the error says the server could not be told.
func (c *Client) SignOut(ctx context.Context) (Status, error) {
	cfg, err := c.loadConfig()
	if errors.Is(err, errNotJoined) {
		return c.Status(ctx), nil
	}
	var told error
	if err == nil {
		told = c.revoke(ctx, cfg)
		if err := c.secretsFor(cfg).Delete(cfg.Server); err != nil {
			return c.Status(ctx), err
		}
	}
	c.mu.Lock()
	c.access, c.expires = "", time.Time{}
	c.mu.Unlock()
	if err := os.Remove(c.configPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return c.Status(ctx), fmt.Errorf("removing the team settings: %w", err)
	}
	st := c.Status(ctx)
	if told != nil {
		return st, fmt.Errorf("signed out on this computer, but %s could not be told (%v): the sign-in ends there when it expires, or when you sign this computer out on the server", cfg.Server, told)
	}
	return st, nil
}

func (c *Client) revoke(ctx context.Context, cfg config) error {
	refresh, err := c.secretsFor(cfg).Get(cfg.Server)
	if errors.Is(err, ErrNoSecret) {
		return nil
	}
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.Discovery.RevocationEndpoint,
		strings.NewReader(url.Values{"token": {refresh}}.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.o.HTTP.Do(req)
	if err != nil {
		return rootCause(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("it answered %s", resp.Status)
	}
	return nil
}

func (c *Client) revokeQuietly(ctx context.Context, cfg config) {
	_ = c.revoke(ctx, cfg)
	_ = c.secretsFor(cfg).Delete(cfg.Server)
}
