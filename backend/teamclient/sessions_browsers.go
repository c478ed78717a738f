package teamclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// The browsers and phones the person signed in to the team server with may
// each see the Needs you page and answer from it. Settings → Team lists
// them, as the page does, and signs one out (a lost phone): at once it can
// neither see, answer nor get pushes.

// SignedInBrowser is one of the person's browsers on the team server.
type SignedInBrowser struct {
	ID        string `json:"id"`
	Name      string `json:"name"` // "Safari on iPhone"
	UserAgent string `json:"user_agent"`
	SignedIn  string `json:"signed_in,omitempty"` // RFC 3339
	// Pushes counts its Web Push subscriptions.
	Pushes int `json:"pushes"`
	// SignedOut: its sign-in ended but pushes still reach it.
	SignedOut bool `json:"signed_out"`
}

// Browsers lists the person's browsers from the team server.
func (s *SessionShare) Browsers(ctx context.Context) ([]SignedInBrowser, error) {
	var got struct {
		Browsers []SignedInBrowser `json:"browsers"`
	}
	if _, err := s.c.Call(ctx, http.MethodGet, "/api/sessions/device/browsers", nil, &got); err != nil {
		return nil, fmt.Errorf("reading your browsers from the team server: %w", err)
	}
	if got.Browsers == nil {
		got.Browsers = []SignedInBrowser{}
	}
	return got.Browsers, nil
}

// RevokeBrowser signs the browser id out and stops its pushes; it returns
// the list as it is then.
func (s *SessionShare) RevokeBrowser(ctx context.Context, id string) ([]SignedInBrowser, error) {
	var got struct {
		Browsers []SignedInBrowser `json:"browsers"`
	}
	if _, err := s.c.Call(ctx, http.MethodPost, "/api/sessions/device/browsers/"+url.PathEscape(id)+"/revoke", nil, &got); err != nil {
		return nil, fmt.Errorf("signing the browser out on the team server: %w", err)
	}
	if got.Browsers == nil {
		got.Browsers = []SignedInBrowser{}
	}
	return got.Browsers, nil
}
