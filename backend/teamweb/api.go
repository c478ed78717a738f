package teamweb

import (
	"net/http"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// Register hands each route to mount: the JSON API over the browser's
// session (same-origin writes, JSON bodies, teamauth's error statuses),
// and the page at / with its forms.
func (w *Web) Register(mount func(pattern string, h http.Handler)) {
	api := w.cfg.Auth.API
	mount("GET /api/workspaces/{ws}/projects", api(w.listProjects))
	mount("POST /api/workspaces/{ws}/projects", api(w.createProject))
	mount("GET /api/connections", api(w.listAssistants))
	mount("PUT /api/connections/{conn}/projects/{project}", api(w.setProject(true)))
	mount("DELETE /api/connections/{conn}/projects/{project}", api(w.setProject(false)))
	mount("POST /api/connections/{conn}/revoke", api(w.revoke))
	w.registerPage(mount)
}

func (w *Web) listProjects(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	return w.Projects(r.Context(), p.ID, r.PathValue("ws"))
}

func (w *Web) createProject(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in struct {
		Name string `json:"name"`
	}
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return w.CreateProject(r.Context(), p.ID, r.PathValue("ws"), in.Name)
}

func (w *Web) listAssistants(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	return w.Assistants(r.Context(), p.ID)
}

func (w *Web) setProject(on bool) teamauth.APIFunc {
	return func(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
		return w.SetProject(r.Context(), p.ID, r.PathValue("conn"), r.PathValue("project"), on)
	}
}

func (w *Web) revoke(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	return w.Revoke(r.Context(), p.ID, r.PathValue("conn"))
}
