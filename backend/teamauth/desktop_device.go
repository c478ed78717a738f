package teamauth

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Device is one desktop's sign-in: Key stays the same across refreshes of
// its tokens (the token family) and ends with it at sign-out; Name is what
// the desktop called itself when it signed in.
type Device struct {
	Key  string `json:"-"`
	Name string `json:"name"`
}

// DeviceFunc is a desktop route that needs to know which sign-in calls.
type DeviceFunc func(w http.ResponseWriter, r *http.Request, p Person, d Device) (any, error)

// DesktopDeviceAPI is DesktopAPI for routes that keep something per
// desktop (shared sessions): the device comes from the access token, never
// from the request, so a desktop can only touch its own.
func (s *Service) DesktopDeviceAPI(fn DeviceFunc) http.HandlerFunc {
	return s.DesktopAPI(func(w http.ResponseWriter, r *http.Request, p Person) (any, error) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		var d Device
		err := s.db.QueryRow(r.Context(), `SELECT family, device FROM teamauth_desktop_tokens
			WHERE hash = $1 AND kind = 'access' AND person_id = $2`, hashSecret(tok), p.ID).Scan(&d.Key, &d.Name)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("%w: this computer's sign-in ended meanwhile: sign in again", ErrForbidden)
		}
		if err != nil {
			return nil, fmt.Errorf("reading the desktop's sign-in: %w", err)
		}
		return fn(w, r, p, d)
	})
}
