package teampush

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// Quiet hours hold pushes back in the person's own time zone, across
// midnight; outside them the push goes; bad settings are refused.
func TestQuietHours(t *testing.T) {
	r1, r2, c := twoReplicas(t)
	ntfy, got := listener(t, http.StatusOK)
	if _, err := r1.SetTopic(bg, "p-alice", ntfy.URL, ""); err != nil {
		t.Fatal(err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal("no time zone data (Debian: tzdata):", err)
	}
	if _, err := r1.SetQuiet(bg, "p-alice", Quiet{From: "22:00", To: "07:00", TimeZone: "Europe/Berlin"}); err != nil {
		t.Fatal(err)
	}
	q, ok, err := r2.QuietOf(bg, "p-alice")
	if err != nil || !ok || q != (Quiet{From: "22:00", To: "07:00", TimeZone: "Europe/Berlin"}) {
		t.Fatalf("read back: %+v %v %v", q, ok, err)
	}
	m := Message{Title: "t", Body: "b", URL: "/needs-you"}
	for i, c2 := range []struct {
		at    time.Time
		quiet bool
	}{
		{time.Date(2026, 12, 4, 23, 30, 0, 0, berlin), true},
		{time.Date(2026, 12, 5, 6, 59, 0, 0, berlin), true},
		{time.Date(2026, 12, 5, 7, 0, 0, 0, berlin), false},
		{time.Date(2026, 12, 5, 21, 59, 0, 0, berlin), false},
		{time.Date(2026, 12, 5, 21, 30, 0, 0, time.UTC), true}, // 22:30 in Berlin
	} {
		c.mu.Lock()
		c.now = c2.at
		c.mu.Unlock()
		sent := len(got())
		d, err := r2.Notify(bg, "p-alice", "s"+string(rune('a'+i)), m)
		if err != nil || d.Quiet != c2.quiet || d.Ntfy == c2.quiet || (len(got()) > sent) == c2.quiet {
			t.Errorf("%v: %+v %v", c2.at, d, err)
		}
	}
	for _, bad := range []Quiet{{From: "22:00", To: "22:00", TimeZone: "UTC"}, {From: "25:00", To: "07:00", TimeZone: "UTC"},
		{From: "22:00", To: "07:00", TimeZone: "Mars/Olympus"}, {From: "22:00", To: "07:00"}} {
		if _, err := r1.SetQuiet(bg, "p-alice", bad); err == nil || !strings.Contains(err.Error(), "such as") {
			t.Errorf("%+v was taken: %v", bad, err)
		}
	}
	if err := r1.RemoveQuiet(bg, "p-alice"); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.now = time.Date(2026, 12, 6, 23, 30, 0, 0, berlin)
	c.mu.Unlock()
	if d, _ := r1.Notify(bg, "p-alice", "late", m); !d.Ntfy {
		t.Fatalf("after removing the quiet hours: %+v", d)
	}
}
