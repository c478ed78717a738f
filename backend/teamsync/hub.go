package teamsync

import (
	"net/http"

	"github.com/osfoundry/desktop/backend/pghub"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// notifyChannel is where sync_record announces a workspace's change (its
// id as the payload), at commit.
const notifyChannel = "osf_sync"

// events is a server-sent event stream for a desktop: a "change" event at
// once (pull what happened while away) and after every committed change of
// the workspace, through any replica.
func (s *Service) events(w http.ResponseWriter, r *http.Request) {
	ws := r.PathValue("ws")
	// DesktopAPI writes the refusal; on success the stream takes over.
	ok := false
	s.cfg.Auth.DesktopAPI(func(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
		err := s.cfg.Auth.Require(r.Context(), p.ID, ws, teamauth.Read)
		ok = err == nil
		return nil, err
	})(pghub.HideNoContent{ResponseWriter: w}, r)
	if ok {
		s.hub.Stream(w, r, ws, "change", ws)
	}
}
