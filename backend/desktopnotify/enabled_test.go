package desktopnotify

import "testing"

// countingPlatform records what would reach the OS.
type countingPlatform struct{ shown []Message }

func (c *countingPlatform) show(m Message) error { c.shown = append(c.shown, m); return nil }
func (c *countingPlatform) close()               {}

func TestShowHonoursTheOnOffSetting(t *testing.T) {
	cases := []struct {
		name    string
		toggles []bool
		want    int
	}{
		{"on by default", nil, 1},
		{"turned off", []bool{false}, 0},
		{"off then on again", []bool{false, true}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &countingPlatform{}
			n := &Notifier{app: "test", plat: p}
			for _, on := range tc.toggles {
				n.SetEnabled(on)
			}
			if err := n.Show(Message{Title: "claude needs you", Key: "p1"}); err != nil {
				t.Fatalf("Show: %v", err)
			}
			if len(p.shown) != tc.want {
				t.Fatalf("notifications shown = %d, want %d", len(p.shown), tc.want)
			}
			if got := n.Enabled(); got != (tc.want == 1) {
				t.Fatalf("Enabled() = %v", got)
			}
		})
	}
}
