package teamclient

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"time"
)

// retryEvery is how often a removal or upload the server did not take is
// tried again (and the other devices' list read, should a stream miss).
const retryEvery = 10 * time.Second

// Run keeps the server in step with the switch until ctx ends: at once,
// whenever the board changes or the switch moves, every few seconds while
// something is owed, and once a minute to say this desktop still runs. It
// also holds the server's stream of the person's sessions open, so the
// other devices' lists are here within a second of changing.
func (s *SessionShare) Run(ctx context.Context) {
	go s.listen(ctx)
	t := time.NewTicker(retryEvery)
	defer t.Stop()
	for {
		s.Sync(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-t.C:
		}
	}
}

// listen reads the person's sessions whenever the server says they
// changed; a dropped stream (or a desktop not signed in) is tried again.
func (s *SessionShare) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := s.c.stream(ctx, "/api/sessions/events", func() {
			if err := s.Refresh(ctx); err != nil && ctx.Err() == nil {
				s.log.Info("reading the shared sessions", "error", err.Error())
			}
			go s.TakeAnswers(ctx)
		})
		wait := 2 * time.Second
		if errors.Is(err, errNotJoined) {
			wait = retryEvery
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
}

// Refresh reads the person's shared sessions from the server and tells the
// window when they changed.
func (s *SessionShare) Refresh(ctx context.Context) error {
	var got SharedSessions
	if _, err := s.c.Call(ctx, http.MethodGet, "/api/sessions", nil, &got); err != nil {
		return err
	}
	if got.Devices == nil {
		got.Devices = []SharedDevice{}
	}
	s.mu.Lock()
	changed := !reflect.DeepEqual(got, s.others)
	s.others = got
	s.mu.Unlock()
	if changed {
		s.emit.Emit(EventSessions, s.View(ctx))
	}
	return nil
}

// Others is the last list read of the person's sharing desktops.
func (s *SessionShare) Others() SharedSessions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.others
}
