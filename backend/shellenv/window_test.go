package shellenv

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestSummarySaysHowPATHWasFound(t *testing.T) {
	sep := string(os.PathListSeparator)
	for _, tc := range []struct {
		name string
		r    Result
		want string
	}{
		{"from a terminal", Result{Path: "/usr/bin"}, "PATH as started (from a terminal): /usr/bin"},
		{"read", Result{Shell: "/bin/zsh", Reason: "no terminal", OK: true, Duration: 120 * time.Millisecond,
			Added: []string{"/a", "/b"}, Dropped: []string{"/gone"}},
			"login shell /bin/zsh: PATH resolved in 120 ms (no terminal); added /a" + sep + "/b; dropped (not folders) /gone"},
		{"registry", Result{Shell: "registry", Reason: "no terminal", OK: true},
			"user and system PATH from the registry: PATH resolved in 0 ms (no terminal)"},
		{"timed out", Result{Shell: "/bin/bash", Reason: "PATH unusable", Error: "timed out", Duration: 5 * time.Second, Path: "/usr/bin"},
			"login shell /bin/bash: could not read the environment after 5000 ms (PATH unusable): timed out — using PATH=/usr/bin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Summary(); got != tc.want {
				t.Errorf("Summary() = %q\nwant        %q", got, tc.want)
			}
		})
	}
	if strings.Contains((Result{}).Summary(), "login shell") {
		t.Error("a window started from a terminal names a login shell it never read")
	}
}
