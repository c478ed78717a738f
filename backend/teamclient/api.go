package teamclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// APIError is a refusal of the team server: its status and what it said.
type APIError struct {
	Status  int
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("the team server answered %d: %s", e.Status, e.Message)
}

// Call sends one request of the desktop API to the joined server with the
// access token (refreshed first when it is about to expire, and once more
// after a 401) and decodes a 2xx answer, or a 409 with a body, into out.
// It returns the status; a network failure wraps ErrUnreachable, a
// refusal is an *APIError.
func (c *Client) Call(ctx context.Context, method, path string, in, out any) (int, error) {
	cfg, err := c.loadConfig()
	if err != nil {
		return 0, err
	}
	var body []byte
	if in != nil {
		if body, err = json.Marshal(in); err != nil {
			return 0, fmt.Errorf("encoding the request: %w", err)
		}
	}
	for attempt := 0; attempt < 2; attempt++ {
		access, err := c.accessToken(ctx, cfg, attempt > 0)
		if err != nil {
			return 0, err
		}
		req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(cfg.Server, "/")+path, bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+access)
		req.Header.Set("Accept", "application/json")
		if in != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := c.o.HTTP.Do(req)
		if err != nil {
			return 0, unreachable(cfg.Server, err)
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		resp.Body.Close()
		if err != nil {
			return 0, unreachable(cfg.Server, err)
		}
		switch code := resp.StatusCode; {
		case code == http.StatusUnauthorized:
			continue
		case code/100 == 2 || code == http.StatusConflict && len(data) > 0:
			if out != nil && len(data) > 0 {
				if err := json.Unmarshal(data, out); err != nil {
					return code, fmt.Errorf("%w: %s answered something this app cannot read", ErrNotTeamServer, cfg.Server)
				}
			}
			return code, nil
		case code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout:
			return code, fmt.Errorf("%w: %s answered %s", ErrUnreachable, cfg.Server, resp.Status)
		default:
			var e struct {
				Error string `json:"error"`
			}
			_ = json.Unmarshal(data, &e)
			if e.Error == "" {
				e.Error = resp.Status
			}
			return code, &APIError{Status: code, Message: e.Error}
		}
	}
	return 0, &errGrant{"the server no longer accepts this computer's tokens"}
}

// IsUnreachable says whether err means "try again later" (the server or
// the network is away), as opposed to a refusal.
func IsUnreachable(err error) bool { return errors.Is(err, ErrUnreachable) }
