package teampush

import (
	"fmt"
	"net/http"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// Register hands each route to mount: the page's push settings over the
// browser's session (teamauth.API: same-origin writes, JSON bodies).
func (s *Service) Register(auth *teamauth.Service, mount func(pattern string, h http.Handler)) {
	s.auth = auth
	api := auth.API
	mount("GET /api/push", api(s.settings))
	mount("POST /api/push/subscriptions", api(s.subscribe))
	mount("DELETE /api/push/subscriptions", api(s.unsubscribe))
	mount("PUT /api/push/ntfy", api(s.setTopic))
	mount("DELETE /api/push/ntfy", api(s.removeTopic))
	mount("POST /api/push/test", api(s.test))
	mount("GET /api/push/ntfy/qr.png", s.ntfyQR(auth))
	mount("PUT /api/push/quiet", api(s.setQuiet))
	mount("DELETE /api/push/quiet", api(s.removeQuiet))
	// The same quiet hours from the desktop's Settings → Team.
	dev := auth.DesktopAPI
	mount("GET /api/push/device/quiet", dev(s.quiet))
	mount("PUT /api/push/device/quiet", dev(s.setQuiet))
	mount("DELETE /api/push/device/quiet", dev(s.removeQuiet))
}

// QuietView is the body of GET /api/push/device/quiet.
type QuietView struct {
	Quiet *Quiet `json:"quiet"` // nil: none
}

func (s *Service) quiet(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	q, ok, err := s.QuietOf(r.Context(), p.ID)
	if err != nil || !ok {
		return QuietView{}, err
	}
	return QuietView{Quiet: &q}, nil
}

// Settings is what the page shows of a person's pushes.
type Settings struct {
	// VAPIDPublicKey is the applicationServerKey a browser subscribes with.
	VAPIDPublicKey string `json:"vapid_public_key"`
	Ntfy           *Topic `json:"ntfy"`
	// Quiet is the person's quiet hours (nil: none).
	Quiet *Quiet `json:"quiet"`
}

func (s *Service) settings(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	pub, err := s.PublicKey(r.Context())
	if err != nil {
		return nil, err
	}
	out := Settings{VAPIDPublicKey: pub}
	if t, ok, err := s.TopicOf(r.Context(), p.ID); err != nil {
		return nil, err
	} else if ok {
		out.Ntfy = &t
	}
	if q, ok, err := s.QuietOf(r.Context(), p.ID); err != nil {
		return nil, err
	} else if ok {
		out.Quiet = &q
	}
	return out, nil
}

func (s *Service) setQuiet(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in Quiet
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.SetQuiet(r.Context(), p.ID, in)
}

func (s *Service) removeQuiet(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	return nil, s.RemoveQuiet(r.Context(), p.ID)
}

func (s *Service) subscribe(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var sub webpush.Subscription
	if err := teamauth.ReadJSON(r, &sub); err != nil {
		return nil, err
	}
	return nil, s.SubscribeBrowser(r.Context(), p.ID, Browser{Key: s.auth.SessionKey(r), UserAgent: teamauth.UserAgent(r)}, sub)
}

func (s *Service) unsubscribe(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in struct {
		Endpoint string `json:"endpoint"`
	}
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return nil, s.Unsubscribe(r.Context(), p.ID, in.Endpoint)
}

func (s *Service) setTopic(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in struct {
		Server string `json:"server"`
		Token  string `json:"token"`
	}
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.SetTopic(r.Context(), p.ID, in.Server, in.Token)
}

func (s *Service) removeTopic(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	return nil, s.RemoveTopic(r.Context(), p.ID)
}

// test sends a push now, outside any session's cooldown.
func (s *Service) test(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	d, err := s.send(r.Context(), p.ID, fmt.Sprintf("test-%d", time.Now().UnixNano()),
		Message{Title: "osFoundry", Body: "Pushes reach this device.", URL: "/needs-you"})
	if err != nil {
		return nil, err
	}
	return struct {
		Ntfy    bool     `json:"ntfy"`
		WebPush int      `json:"web_push"`
		Failed  []string `json:"failed"`
	}{d.Ntfy, d.WebPush, append([]string{}, d.Failed...)}, nil
}
