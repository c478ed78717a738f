package teamsessions

import (
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
	if person != "" {
		s.hub.Stream(w, r, person, "change", "sessions")
	}
}
