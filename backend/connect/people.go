package connect

import (
	"net/http"
	"net/url"
)

// Approver is the person signed in on the browser that opened the consent
// page: whoever approves a connection there.
type Approver struct {
	// ID is the person's user id in the Store (roles and workspaces are
	// read by it); Name is shown where a name is needed.
	ID, Name string
	// Session names this sign-in, never as the cookie itself (a hash of
	// it): a consent shown to one sign-in can only be approved by it.
	Session string
}

// People says who is signed in on a browser. The default is the owner's
// sign-in link and the session cookie it sets (OwnerSessions); the team
// server plugs in its OpenID Connect sign-in.
type People interface {
	// Approver is the person signed in on r's browser; false when nobody
	// is (or their session cannot be read).
	Approver(r *http.Request) (Approver, bool)
	// SignInURL is where to send a browser that must sign in before it
	// approves; continueAt (a path and query on this server) is where the
	// sign-in must come back to. "" shows the page that says how to get
	// the owner's sign-in link.
	SignInURL(r *http.Request, continueAt string) string
}

// OwnerSessions is the default People: the session cookie a one-time
// sign-in link (Server.SignInURL) sets, kept in the Service's Store.
type OwnerSessions struct{ svc *Service }

var _ People = OwnerSessions{}

// NewOwnerSessions returns the sign-in-link sessions of svc.
func NewOwnerSessions(svc *Service) OwnerSessions { return OwnerSessions{svc: svc} }

// Approver reads the request's session cookie.
func (o OwnerSessions) Approver(r *http.Request) (Approver, bool) {
	user, hash := o.svc.sessionUser(r)
	return Approver{ID: user, Session: hash}, user != ""
}

// SignInURL is "": the owner gets a link from the app or the command line.
func (OwnerSessions) SignInURL(*http.Request, string) string { return "" }

// approver is who is signed in on r's browser ("" when nobody). A person
// another People knows becomes a user of the Store on first sight, so
// roles can be given to them and connections name them as approver.
func (s *Server) approver(r *http.Request) (user, session string) {
	p, ok := s.people.Approver(r)
	if !ok || p.ID == "" || p.Session == "" {
		return "", ""
	}
	if _, own := s.people.(OwnerSessions); !own {
		// The local owner is an admin of every workspace; only the owner's
		// own sign-in link may act as them, never a name another sign-in
		// hands over.
		if p.ID == OwnerID {
			return "", ""
		}
		if err := s.svc.EnsureUser(r.Context(), p.ID, p.Name); err != nil {
			return "", ""
		}
	}
	return p.ID, p.Session
}

// continuePath is the consent page of a waiting request, where a sign-in
// comes back to.
func continuePath(requestID string) string {
	return authorizePath + "?request=" + url.QueryEscape(requestID)
}
