package remoteanswer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/teampush"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// TestQuietHoursFromTheDesktop: the quiet hours set in the desktop's
// Settings → Team are the ones the page shows, and the other way round;
// while they last a session that starts needing alice pushes nothing, and
// once she turns them off on the desktop the next one pushes again. The
// desktop also lists her browsers and signs one out.
func TestQuietHoursFromTheDesktop(t *testing.T) {
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	base := tm.LB.URL
	d := newDesk(t, tm)
	if q, err := d.share.Quiet(bg); err != nil || q.On {
		t.Fatalf("quiet hours before any were set: %+v %v", q, err)
	}
	q, err := d.share.SetQuiet(bg, "22:00", "07:00", "Europe/Berlin")
	if err != nil || !q.On || q.From != "22:00" || q.To != "07:00" || q.TimeZone != "Europe/Berlin" {
		t.Fatalf("quiet hours set on the desktop: %+v %v", q, err)
	}
	var page teampush.Settings
	must(t, tm.Owner.API("GET", base+"/api/push", nil, &page))
	if page.Quiet == nil || *page.Quiet != (teampush.Quiet{From: "22:00", To: "07:00", TimeZone: "Europe/Berlin"}) {
		t.Fatalf("the page's quiet hours after the desktop set them: %+v", page.Quiet)
	}
	must(t, tm.Owner.API("PUT", base+"/api/push/quiet", teampush.Quiet{From: "21:30", To: "06:45", TimeZone: "America/New_York"}, nil))
	if q, err := d.share.Quiet(bg); err != nil || !q.On || q.From != "21:30" || q.To != "06:45" || q.TimeZone != "America/New_York" {
		t.Fatalf("the desktop's quiet hours after the page set them: %+v %v", q, err)
	}
	if _, err := d.share.SetQuiet(bg, "25:00", "07:00", "UTC"); err == nil || !strings.Contains(err.Error(), "22:00 and 07:00") {
		t.Fatalf("quiet hours from 25:00: %v", err)
	}
	if _, err := d.share.SetQuiet(bg, "22:00", "07:00", "Mars/Olympus"); err == nil || !strings.Contains(err.Error(), "IANA name") {
		t.Fatalf("quiet hours in an unknown zone: %v", err)
	}

	// Quiet now (the hour around this minute, in UTC): a prompt pushes nothing.
	now := time.Now().UTC()
	if _, err := d.share.SetQuiet(bg, now.Add(-time.Hour).Format("15:04"), now.Add(time.Hour).Format("15:04"), "UTC"); err != nil {
		t.Fatal(err)
	}
	ntfy := newNtfy(t)
	must(t, tm.Owner.API("PUT", base+"/api/push/ntfy", map[string]string{"server": ntfy.URL}, nil))
	ctx, stop := context.WithCancel(bg)
	defer stop()
	go d.share.Run(ctx)
	if _, err := d.share.SetSharing(bg, true); err != nil {
		t.Fatal(err)
	}
	since := d.ask()
	waitFor(t, "the prompt on the page", func() bool { return strings.Contains(page2(t, tm), "Do you want to proceed?") })
	time.Sleep(2 * time.Second) // a push would be on its way by now
	if got := ntfy.got(); len(got) != 0 {
		t.Fatalf("pushed in quiet hours: %v", got)
	}
	// Off on the desktop: the next prompt pushes.
	if q, err := d.share.ClearQuiet(bg); err != nil || q.On {
		t.Fatalf("quiet hours off: %+v %v", q, err)
	}
	must(t, tm.Owner.API("GET", base+"/api/push", nil, &page))
	if page.Quiet != nil {
		t.Fatalf("the page still shows quiet hours: %+v", page.Quiet)
	}
	d.card(board.Running, since+1)
	waitFor(t, "the session running", func() bool { return !strings.Contains(page2(t, tm), "Do you want to proceed?") })
	d.ask()
	waitFor(t, "a push after the quiet hours ended", func() bool {
		for _, p := range ntfy.got() {
			if strings.HasPrefix(p, "Claude Code in shop-api needs you | Do you want to proceed?") {
				return true
			}
		}
		return false
	})

	// Settings → Team lists alice's browsers too, and signs one out: it is
	// refused at once.
	bs, err := d.share.Browsers(bg)
	if err != nil || len(bs) != 1 || bs[0].Name != "A browser" || !strings.Contains(bs[0].UserAgent, "Go-http-client") || bs[0].SignedIn == "" {
		t.Fatalf("alice's browsers from the desktop: %+v %v", bs, err)
	}
	if bs, err = d.share.RevokeBrowser(bg, bs[0].ID); err != nil || len(bs) != 0 {
		t.Fatalf("signing the browser out from the desktop: %+v %v", bs, err)
	}
	if err := tm.Owner.API("GET", base+"/api/sessions", nil, nil); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("the signed-out browser still reads: %v", err)
	}
	if _, err := d.share.RevokeBrowser(bg, "b_unknown"); err == nil || !strings.Contains(err.Error(), "no browser of yours") {
		t.Fatalf("signing out a browser that is not alice's: %v", err)
	}
}

func page2(t *testing.T, tm *teamtest.Team) string { return page(t, tm.Owner, tm.LB.URL) }
