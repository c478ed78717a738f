package main

import (
	"context"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/teampush"
	"github.com/osfoundry/desktop/backend/teamserver"
	"github.com/osfoundry/desktop/backend/teamsessions"
)

// startSessions serves the sessions desktops share while their person
// turned sharing on: uploads, removal, the person's list and live news of
// changes committed through any replica.
func (p *teamParts) startSessions(ctx context.Context, s *teamserver.Server) error {
	if p.auth == nil {
		return nil
	}
	svc, err := teamsessions.New(teamsessions.Config{Pool: s.Pool(), Auth: p.auth, Logger: s.Logger(), NeedsYou: p.pushNeedsYou, Pushes: partsPushes{p}})
	if err != nil {
		return err
	}
	if err := svc.Listen(ctx); err != nil {
		return err
	}
	svc.Register(s.Mount)
	p.sessions = svc
	return nil
}

func (p *teamParts) sessionsReady(context.Context) error {
	if p.sessions == nil {
		return nil
	}
	return p.sessions.Ready()
}

// sessionTools offer list_shared_sessions to connected assistants: the
// approver's own shared sessions, under scope osfoundry:read.
func (p *teamParts) sessionTools() []connect.ToolSource {
	if p.sessions == nil {
		return nil
	}
	return []connect.ToolSource{teamsessions.Source{S: p.sessions}}
}

// pushNeedsYou tells the person's phone (ntfy, Web Push) that a session
// of theirs started waiting: its title and the question's line, nothing
// more, and a link that opens the Needs you page on it; the same session pushes at most once every teampush.Cooldown.
func (p *teamParts) pushNeedsYou(ctx context.Context, person string, d teamauth.Device, ss teamsessions.Session) {
	if p.push == nil {
		return
	}
	_, err := p.push.Notify(ctx, person, d.Key+"/"+ss.Kind+"/"+ss.Title,
		teampush.Message{Title: ss.Title + " needs you", Body: ss.Line + " (on " + d.Name + ")",
			URL: "/needs-you#s-" + teamsessions.DeviceID(d.Key) + "-" + ss.ID})
	if err != nil {
		p.log.Warn("pushing a session that needs its person", "error", err.Error())
	}
}

// partsPushes hands the page the pushes, which start after the sessions.
type partsPushes struct{ p *teamParts }

func (pp partsPushes) Subscribed(ctx context.Context, person string) (map[string]teampush.Subscribed, error) {
	if pp.p.push == nil {
		return map[string]teampush.Subscribed{}, nil
	}
	return pp.p.push.Subscribed(ctx, person)
}

func (pp partsPushes) DropBrowser(ctx context.Context, person, key string) error {
	if pp.p.push == nil {
		return nil
	}
	return pp.p.push.DropBrowser(ctx, person, key)
}
