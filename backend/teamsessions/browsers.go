package teamsessions

import (
	"context"
	"net/http"
	"sort"
	"time"

	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/teampush"
)

// Every browser a person signed in with may see the Needs you page and
// answer from it, and gets pushes once it subscribed. The page lists them
// (with the ones a push still reaches after their sign-in ended) and signs
// one out: its session ends on every replica at once (its next request is
// refused, its open event stream is cut) and its pushes stop.

// Pushes is what the page needs of the pushes (teampush.Service).
type Pushes interface {
	Subscribed(ctx context.Context, person string) (map[string]teampush.Subscribed, error)
	DropBrowser(ctx context.Context, person, key string) error
}

// PageBrowser is one of the person's browsers as the page lists it.
type PageBrowser struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	UserAgent string    `json:"user_agent"`
	SignedIn  time.Time `json:"signed_in,omitzero"`
	Current   bool      `json:"current"`
	// Pushes counts its Web Push subscriptions.
	Pushes int `json:"pushes"`
	// SignedOut: its sign-in ended, but pushes still reach it.
	SignedOut bool `json:"signed_out"`
}

// Browsers is the body of GET /api/sessions/browsers.
type Browsers struct {
	Browsers []PageBrowser `json:"browsers"`
}

func (s *Service) registerBrowsers(mount func(pattern string, h http.Handler)) {
	mount("GET /api/sessions/browsers", s.cfg.Auth.API(func(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
		return s.BrowsersOf(r.Context(), p.ID, s.cfg.Auth.SessionKey(r))
	}))
	mount("POST /api/sessions/browsers/{id}/revoke", s.cfg.Auth.API(func(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
		return nil, s.RevokeBrowser(r.Context(), p.ID, r.PathValue("id"))
	}))
	// The same list and Sign out in a desktop's Settings → Team.
	mount("GET /api/sessions/device/browsers", s.cfg.Auth.DesktopAPI(func(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
		return s.BrowsersOf(r.Context(), p.ID, "")
	}))
	mount("POST /api/sessions/device/browsers/{id}/revoke", s.cfg.Auth.DesktopAPI(func(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
		if err := s.RevokeBrowser(r.Context(), p.ID, r.PathValue("id")); err != nil {
			return nil, err
		}
		return s.BrowsersOf(r.Context(), p.ID, "")
	}))
}

// BrowsersOf lists person's browsers; current is the asking one's session key.
func (s *Service) BrowsersOf(ctx context.Context, person, current string) (Browsers, error) {
	bs, err := s.cfg.Auth.Browsers(ctx, person, current)
	if err != nil {
		return Browsers{}, err
	}
	subs := map[string]teampush.Subscribed{}
	if s.cfg.Pushes != nil {
		if subs, err = s.cfg.Pushes.Subscribed(ctx, person); err != nil {
			return Browsers{}, err
		}
	}
	out := Browsers{Browsers: []PageBrowser{}}
	for _, b := range bs {
		out.Browsers = append(out.Browsers, PageBrowser{ID: b.ID, Name: b.Name, UserAgent: b.UserAgent, SignedIn: b.SignedIn,
			Current: b.Current, Pushes: subs[b.Key].Count})
		delete(subs, b.Key)
	}
	var gone []PageBrowser
	for key, sub := range subs {
		gone = append(gone, PageBrowser{ID: teamauth.BrowserID(key), Name: teamauth.BrowserName(sub.UserAgent), UserAgent: sub.UserAgent,
			Pushes: sub.Count, SignedOut: true})
	}
	sort.Slice(gone, func(i, j int) bool { return gone[i].ID < gone[j].ID })
	out.Browsers = append(out.Browsers, gone...)
	return out, nil
}

// RevokeBrowser signs person's browser id out and stops its pushes; its
// open pages hear of it at once (through every replica) and go to sign in.
func (s *Service) RevokeBrowser(ctx context.Context, person, id string) error {
	key, ok, err := s.cfg.Auth.SignOutBrowser(ctx, person, id)
	if err != nil {
		return err
	}
	if !ok && s.cfg.Pushes != nil {
		subs, err := s.cfg.Pushes.Subscribed(ctx, person)
		if err != nil {
			return err
		}
		for k := range subs {
			if teamauth.BrowserID(k) == id {
				key, ok = k, true
			}
		}
	}
	if !ok {
		return teamauth.Refuse(http.StatusNotFound, "no browser of yours with that id: reload the page")
	}
	if s.cfg.Pushes != nil {
		if err := s.cfg.Pushes.DropBrowser(ctx, person, key); err != nil {
			return err
		}
	}
	return s.announce(ctx, person)
}

// announce wakes every event stream of person, on every replica.
func (s *Service) announce(ctx context.Context, person string) error {
	_, err := s.cfg.Pool.Exec(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, person)
	return err
}
