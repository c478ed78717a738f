package teampush

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Quiet is a person's quiet hours: no push from From to To ("22:00",
// "07:00"; From after To spans midnight) in their time zone (an IANA
// name such as "Europe/Berlin", as the browser reports it).
type Quiet struct {
	From     string `json:"from"`
	To       string `json:"to"`
	TimeZone string `json:"time_zone"`
}

func clockMinutes(s string) (int, bool) {
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}

// SetQuiet keeps person's quiet hours.
func (s *Service) SetQuiet(ctx context.Context, personID string, q Quiet) (Quiet, error) {
	from, ok1 := clockMinutes(q.From)
	to, ok2 := clockMinutes(q.To)
	if !ok1 || !ok2 || from == to {
		return Quiet{}, badInput("quiet hours are two different times such as 22:00 and 07:00")
	}
	if _, err := time.LoadLocation(q.TimeZone); err != nil || q.TimeZone == "" || q.TimeZone == "Local" {
		return Quiet{}, badInput(fmt.Sprintf("the time zone %q is not one this server knows: send an IANA name such as Europe/Berlin", q.TimeZone))
	}
	if _, err := s.cfg.Pool.Exec(ctx, `INSERT INTO teampush_quiet (person_id, start_min, end_min, time_zone) VALUES ($1, $2, $3, $4)
		ON CONFLICT (person_id) DO UPDATE SET start_min = excluded.start_min, end_min = excluded.end_min, time_zone = excluded.time_zone`,
		personID, from, to, q.TimeZone); err != nil {
		return Quiet{}, fmt.Errorf("saving the quiet hours: %w", err)
	}
	return q, nil
}

// QuietOf is person's quiet hours; ok is false when they have none.
func (s *Service) QuietOf(ctx context.Context, personID string) (q Quiet, ok bool, err error) {
	var from, to int
	err = s.cfg.Pool.QueryRow(ctx, `SELECT start_min, end_min, time_zone FROM teampush_quiet WHERE person_id = $1`, personID).Scan(&from, &to, &q.TimeZone)
	if errors.Is(err, pgx.ErrNoRows) {
		return Quiet{}, false, nil
	}
	if err != nil {
		return Quiet{}, false, fmt.Errorf("reading the quiet hours: %w", err)
	}
	q.From, q.To = fmt.Sprintf("%02d:%02d", from/60, from%60), fmt.Sprintf("%02d:%02d", to/60, to%60)
	return q, true, nil
}

// RemoveQuiet ends person's quiet hours.
func (s *Service) RemoveQuiet(ctx context.Context, personID string) error {
	if _, err := s.cfg.Pool.Exec(ctx, `DELETE FROM teampush_quiet WHERE person_id = $1`, personID); err != nil {
		return fmt.Errorf("removing the quiet hours: %w", err)
	}
	return nil
}

// InQuiet says whether at falls in q.
func (q Quiet) InQuiet(at time.Time) bool {
	from, ok1 := clockMinutes(q.From)
	to, ok2 := clockMinutes(q.To)
	loc, err := time.LoadLocation(q.TimeZone)
	if !ok1 || !ok2 || err != nil {
		return false
	}
	l := at.In(loc)
	m := l.Hour()*60 + l.Minute()
	if from < to {
		return m >= from && m < to
	}
	return m >= from || m < to
}

// quietNow says whether person is in their quiet hours now.
func (s *Service) quietNow(ctx context.Context, personID string) (bool, error) {
	q, ok, err := s.QuietOf(ctx, personID)
	if err != nil || !ok {
		return false, err
	}
	return q.InQuiet(s.cfg.Now()), nil
}
