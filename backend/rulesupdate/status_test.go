package rulesupdate

import "testing"

// The window gets the install time as epoch ms, like every time it gets;
// the installed record keeps RFC 3339.
func TestStatusSendsTheInstallTimeInMilliseconds(t *testing.T) {
	for _, tc := range []struct {
		name, at string
		want     int64
	}{
		{"rfc 3339", "2026-12-04T17:30:00Z", 1796405400000},
		{"unreadable", "yesterday", 0},
		{"none", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := statusOf(Installed{InstalledAt: tc.at}, true).InstalledAt; got != tc.want {
				t.Fatalf("InstalledAt %d, want %d", got, tc.want)
			}
		})
	}
}
