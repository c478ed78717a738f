package instance

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestLinkRoundTrip(t *testing.T) {
	inst := claim(t, t.TempDir())
	link := inst.Link("pane", "p-3")
	if !strings.HasPrefix(link, "osfoundry://pane/p-3?t=") {
		t.Fatalf("Link = %q", link)
	}
	kind, id, err := inst.Open(link)
	if err != nil || kind != "pane" || id != "p-3" {
		t.Fatalf("Open(%q) = %q, %q, %v", link, kind, id, err)
	}
}

func TestOpenRefusesForeignAndMalformedLinks(t *testing.T) {
	inst := claim(t, t.TempDir())
	other, err := Claim(t.TempDir(), Launch{}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	good := inst.Link("pane", "p-3")
	tok := good[strings.Index(good, "?t=")+3:]

	cases := []struct {
		name, link string
		want       error
	}{
		{"another instance's link", other.Link("pane", "p-3"), ErrStaleLink},
		{"token for another pane", "osfoundry://pane/p-4?t=" + tok, ErrStaleLink},
		{"no token", "osfoundry://pane/p-3", ErrBadLink},
		{"two tokens", good + "&t=" + tok, ErrBadLink},
		{"token not hex", "osfoundry://pane/p-3?t=zz", ErrStaleLink},
		{"empty token", "osfoundry://pane/p-3?t=", ErrStaleLink},
		{"path in id", "osfoundry://pane/../../etc/passwd?t=" + tok, ErrBadLink},
		{"escaped slash", "osfoundry://pane/a%2Fb?t=" + tok, ErrBadLink},
		{"empty id", "osfoundry://pane/?t=" + tok, ErrBadLink},
		{"shell characters", "osfoundry://pane/p-3;rm%20-rf?t=" + tok, ErrBadLink},
		{"other scheme", "https://pane/p-3?t=" + tok, ErrNotLink},
		{"not a url", "%zz", ErrNotLink},
		{"plain argument", "--help", ErrNotLink},
		{"huge", "osfoundry://pane/" + strings.Repeat("a", 1000) + "?t=" + tok, ErrBadLink},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, _, err := inst.Open(c.link); !errors.Is(err, c.want) {
				t.Fatalf("Open(%q) = %v, want %v", c.link, err, c.want)
			}
		})
	}
}
