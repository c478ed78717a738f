package teamclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Quiet hours are the person's, kept on the team server: no push reaches
// their phone from From to To in their time zone, whether they set them
// on the Needs you page or here in Settings → Team (the same setting; each
// shows what the other saved).

// QuietHours is the person's quiet hours as Settings → Team shows them.
type QuietHours struct {
	// On: quiet hours are set; From and To ("22:00", "07:00"; From after
	// To spans midnight) in TimeZone (an IANA name such as Europe/Berlin).
	On       bool   `json:"on"`
	From     string `json:"from"`
	To       string `json:"to"`
	TimeZone string `json:"time_zone"`
}

type quietBody struct {
	From     string `json:"from"`
	To       string `json:"to"`
	TimeZone string `json:"time_zone"`
}

// Quiet reads the person's quiet hours from the server.
func (s *SessionShare) Quiet(ctx context.Context) (QuietHours, error) {
	var got struct {
		Quiet *quietBody `json:"quiet"`
	}
	if _, err := s.c.Call(ctx, http.MethodGet, "/api/push/device/quiet", nil, &got); err != nil {
		return QuietHours{}, quietErr("reading", err)
	}
	if got.Quiet == nil {
		return QuietHours{}, nil
	}
	return QuietHours{On: true, From: got.Quiet.From, To: got.Quiet.To, TimeZone: got.Quiet.TimeZone}, nil
}

// SetQuiet saves quiet hours from..to in timeZone ("" : this computer's).
func (s *SessionShare) SetQuiet(ctx context.Context, from, to, timeZone string) (QuietHours, error) {
	if timeZone == "" {
		timeZone = localZone()
	}
	for _, v := range []string{from, to} {
		if _, err := time.Parse("15:04", v); err != nil {
			return QuietHours{}, fmt.Errorf("quiet hours are two times such as 22:00 and 07:00, not %q", v)
		}
	}
	var got quietBody
	if _, err := s.c.Call(ctx, http.MethodPut, "/api/push/device/quiet", quietBody{From: from, To: to, TimeZone: timeZone}, &got); err != nil {
		return QuietHours{}, quietErr("saving", err)
	}
	return QuietHours{On: true, From: got.From, To: got.To, TimeZone: got.TimeZone}, nil
}

// ClearQuiet ends the quiet hours: pushes come at any time.
func (s *SessionShare) ClearQuiet(ctx context.Context) (QuietHours, error) {
	if _, err := s.c.Call(ctx, http.MethodDelete, "/api/push/device/quiet", nil, nil); err != nil {
		return QuietHours{}, quietErr("turning off", err)
	}
	return QuietHours{}, nil
}

func quietErr(what string, err error) error {
	if errors.Is(err, errNotJoined) {
		return errors.New("quiet hours are kept on the team server: join one first")
	}
	return fmt.Errorf("%s the quiet hours on the team server: %w", what, err)
}

// localZone is this computer's IANA time zone ("" when it cannot tell;
// the window passes the one its browser engine reports).
func localZone() string {
	if z := time.Local.String(); z != "Local" && z != "" {
		return z
	}
	return ""
}
