package teamauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/osfoundry/desktop/backend/lazy"
)

// The members API: a small JSON API over the browser's session. Every
// call reads the caller's role again; ids are always looked up within the
// workspace in the path, so another workspace's ids find nothing.
func (s *Service) registerAPI(mount func(string, http.Handler)) {
	for pattern, fn := range map[string]APIFunc{
		"GET /api/workspaces":                                               s.listWorkspaces,
		"POST /api/workspaces":                                              s.createWorkspaceAPI,
		"GET /api/workspaces/{ws}/access":                                   s.access,
		"GET /api/workspaces/{ws}/members":                                  s.listMembers,
		"POST /api/workspaces/{ws}/members":                                 s.invite,
		"PATCH /api/workspaces/{ws}/members/{member}":                       s.setRole,
		"DELETE /api/workspaces/{ws}/members/{member}":                      s.remove,
		"GET /api/workspaces/{ws}/projects/{project}/approvers":             s.listApprovers,
		"PUT /api/workspaces/{ws}/projects/{project}/approvers/{member}":    s.setApprover(true),
		"DELETE /api/workspaces/{ws}/projects/{project}/approvers/{member}": s.setApprover(false),
	} {
		mount(pattern, s.API(fn))
	}
}

// APIFunc is one JSON route over the browser's session; packages that
// serve beside teamauth on the team server (backend/teamweb) use it too.
type APIFunc func(w http.ResponseWriter, r *http.Request, p Person) (any, error)

// API resolves the session, refuses cross-site writes and turns errors
// into statuses with a message that says what to do.
func (s *Service) API(fn APIFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && !s.SameOrigin(r) {
			writeJSON(w, http.StatusForbidden, apiError{Error: "this request came from another site: use the team server's own pages or API"})
			return
		}
		p, err := s.SessionPerson(r)
		if errors.Is(err, ErrNoSession) {
			writeJSON(w, http.StatusUnauthorized, apiError{Error: "not signed in: sign in first", Login: s.public.String() + loginPath})
			return
		}
		if err != nil {
			s.log.Error("reading a session", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, apiError{Error: "the team server cannot reach its database right now: try again in a moment"})
			return
		}
		s.answer(w, r, p, fn)
	}
}

// DesktopAPI is API for a desktop: the person comes from the access token
// (Authorization: Bearer), not a browser's cookie, so no Origin check.
func (s *Service) DesktopAPI(fn APIFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, _, err := s.DesktopPerson(r)
		if errors.Is(err, ErrBadToken) {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			writeJSON(w, http.StatusUnauthorized, apiError{Error: "the access token is unknown, expired or signed out: refresh it or sign in again"})
			return
		}
		if err != nil {
			s.log.Error("reading a desktop token", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, apiError{Error: "the team server cannot reach its database right now: try again in a moment"})
			return
		}
		s.answer(w, r, p, fn)
	}
}

// answer runs fn for p and writes its result or error.
func (s *Service) answer(w http.ResponseWriter, r *http.Request, p Person, fn APIFunc) {
	out, err := fn(w, r, p)
	if err != nil {
		code := HTTPStatus(err)
		if code == http.StatusInternalServerError {
			s.log.Error("team API", "route", r.Pattern, "err", err)
			err = errors.New("the team server cannot reach its database right now: try again in a moment")
			code = http.StatusServiceUnavailable
		}
		writeJSON(w, code, apiError{Error: err.Error()})
		return
	}
	if out == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	code := http.StatusOK
	if sc, ok := out.(interface{ HTTPStatus() int }); ok {
		code = sc.HTTPStatus() // an answer that is not a success, with a body (a 409's current state)
	}
	writeJSON(w, code, out)
}

type apiError struct {
	Error string `json:"error"`
	Login string `json:"login,omitempty"`
}

// StatusError is an error that names its own HTTP status; packages that
// serve beside teamauth return one for refusals of their own.
type StatusError interface {
	error
	HTTPStatus() int
}

// Refuse is a refusal answered with HTTP status code and the message,
// which says what to do.
func Refuse(code int, format string, a ...any) error {
	return refusal{code, fmt.Sprintf(format, a...)}
}

type refusal struct {
	code int
	msg  string
}

func (e refusal) Error() string   { return e.msg }
func (e refusal) HTTPStatus() int { return e.code }

// HTTPStatus is the status an error of this API answers with (500 for
// anything it does not know, which callers report as the database).
func HTTPStatus(err error) int {
	if se, ok := errors.AsType[StatusError](err); ok {
		return se.HTTPStatus()
	}
	switch {
	case errors.Is(err, ErrNotMember), errors.Is(err, ErrNoMember):
		return http.StatusNotFound
	case errors.Is(err, ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, ErrLastOwner), errors.Is(err, ErrConflict):
		return http.StatusConflict
	case errors.Is(err, ErrBadInput):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// SameOrigin refuses a write a page on another site started: a browser
// names the page's origin (Origin) or at least says cross-site
// (Sec-Fetch-Site); a program that sends neither has no victim's cookies.
func (s *Service) SameOrigin(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" {
		return o == s.public.Scheme+"://"+s.public.Host
	}
	site := r.Header.Get("Sec-Fetch-Site")
	return site == "" || site == "same-origin" || site == "none"
}

// ReadJSON decodes a small JSON body; only application/json is taken, so
// a plain HTML form can never post here.
func ReadJSON(r *http.Request, v any) error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return fmt.Errorf("%w: send a JSON body with Content-Type: application/json", ErrBadInput)
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: the JSON body cannot be read (%v)", ErrBadInput, err)
	}
	return nil
}

func (s *Service) listWorkspaces(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
	ws, err := s.Workspaces(r.Context(), p.ID)
	if ws == nil {
		ws = []Workspace{}
	}
	return ws, err
}

func (s *Service) createWorkspaceAPI(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
	var in struct {
		Name string `json:"name"`
	}
	if err := ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.CreateWorkspace(r.Context(), p.ID, in.Name)
}

func (s *Service) access(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
	q := r.URL.Query()
	var d Decision
	var err error
	if project := q.Get("approve"); project != "" {
		d, err = s.CanApprove(r.Context(), p.ID, r.PathValue("ws"), project)
	} else if act := Action(q.Get("action")); act.valid() {
		d, err = s.Can(r.Context(), p.ID, r.PathValue("ws"), act)
	} else {
		return nil, fmt.Errorf("%w: pass action=read, write, start_run or manage_members, or approve=<project>", ErrBadInput)
	}
	if err == nil && !d.Member {
		err = d.Err()
	}
	return d, err
}

func (s *Service) listMembers(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
	return s.Members(r.Context(), p.ID, r.PathValue("ws"))
}

func (s *Service) invite(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
	var in Invitation
	if err := ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.Invite(r.Context(), p.ID, r.PathValue("ws"), in)
}

func (s *Service) setRole(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
	var c Change
	if err := ReadJSON(r, &c); err != nil {
		return nil, err
	}
	if c.Role == nil && c.Runner == nil {
		return nil, fmt.Errorf("%w: send {\"role\": \"editor\"} and/or {\"runner\": true}", ErrBadInput)
	}
	return s.SetRole(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("member"), c)
}

func (s *Service) remove(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
	return nil, s.RemoveMember(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("member"))
}

func (s *Service) listApprovers(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
	return s.Approvers(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("project"))
}

func (s *Service) setApprover(approves bool) APIFunc {
	return func(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
		return nil, s.SetApprover(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("project"), r.PathValue("member"), approves)
	}
}

// handleMe says who is signed in and where they belong (401 with the
// sign-in address when nobody is).
func (s *Service) handleMe(w http.ResponseWriter, r *http.Request) {
	s.API(func(_ http.ResponseWriter, r *http.Request, p Person) (any, error) {
		ws, err := s.Workspaces(r.Context(), p.ID)
		if ws == nil {
			ws = []Workspace{}
		}
		return struct {
			Person     Person      `json:"person"`
			Workspaces []Workspace `json:"workspaces"`
		}{p, ws}, err
	})(w, r)
}

var logoutPage = lazy.HTML("logout", `<!doctype html>
<meta charset="utf-8"><title>Sign out — osFoundry team server</title>
<form method="post" action="{{.}}"><button>Sign out</button></form>
`)

// handleLogoutPage offers a button: signing out is a POST, so no other
// site can sign a person out with a link or an image.
func (s *Service) handleLogoutPage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = logoutPage().Execute(w, logoutPath)
}

// handleLogout ends the session on every replica at once.
func (s *Service) handleLogout(w http.ResponseWriter, r *http.Request) {
	if !s.SameOrigin(r) {
		http.Error(w, "this sign-out came from another site: use the Sign out button at "+s.public.String()+logoutPath, http.StatusForbidden)
		return
	}
	if err := s.endSession(r.Context(), w, r); err != nil {
		s.serverError(w, err)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, s.public.String()+"/", http.StatusSeeOther)
}
