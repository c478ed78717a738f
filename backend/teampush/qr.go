package teampush

import (
	"net/http"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// qrSize is the PNG's width in pixels: big enough for a phone camera at
// arm's length from a laptop screen, small enough for a page on a phone.
const qrSize = 256

// ntfyQR answers GET /api/push/ntfy/qr.png: the person's ntfy subscribe
// address as a QR code for the phone's ntfy app ("Subscribe to topic" →
// scan). The topic is the secret on a public ntfy server, so the image is
// the signed-in person's own and never cached by anyone else.
func (s *Service) ntfyQR(auth *teamauth.Service) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := auth.SessionPerson(r)
		if err != nil {
			http.Error(w, "not signed in: sign in on the page first", http.StatusUnauthorized)
			return
		}
		t, ok, err := s.TopicOf(r.Context(), p.ID)
		if err != nil {
			http.Error(w, "the team server cannot reach its database right now: try again in a moment", http.StatusServiceUnavailable)
			return
		}
		if !ok {
			http.Error(w, "no ntfy topic yet: make one on the page first", http.StatusNotFound)
			return
		}
		png, err := qrcode.Encode(t.Subscribe, qrcode.Medium, qrSize)
		if err != nil {
			http.Error(w, "drawing the QR code failed: copy the address shown instead", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = w.Write(png)
	}
}
