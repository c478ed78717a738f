package teamsessions

import (
	"context"
	"net/http"

	"github.com/osfoundry/desktop/backend/pghub"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// notifyChannel is where a committed upload or removal names its person.
const notifyChannel = "osf_sessions"

// events is a server-sent event stream of the caller's own sessions
// changing: a "change" event at once, then after every upload or removal
// by any of their desktops, through any replica. A desktop reads it with
// its token, the server's pages with the browser's session.
func (s *Service) events(w http.ResponseWriter, r *http.Request) {
	var person string
	who := func(_ http.ResponseWriter, _ *http.Request, p teamauth.Person) (any, error) {
		person = p.ID
		return nil, nil
	}
	// The API writes a refusal; on success the stream takes over.
	if isBearer(r) {
		s.cfg.Auth.DesktopAPI(who)(pghub.HideNoContent{ResponseWriter: w}, r)
	} else {
		s.cfg.Auth.API(who)(pghub.HideNoContent{ResponseWriter: w}, r)
	}
	if person == "" {
		return
	}
	if !isBearer(r) {
		// A browser signed out (from another of the person's browsers)
		// loses its stream at the next change, which the sign-out announces.
		key := s.cfg.Auth.SessionKey(r)
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		ch, stop := s.hub.Subscribe(person)
		defer stop()
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case <-ch:
					if !s.cfg.Auth.SessionAlive(ctx, key) {
						cancel()
						return
					}
				}
			}
		}()
		r = r.WithContext(ctx)
	}
	s.hub.Stream(w, r, person, "change", "sessions")
}
