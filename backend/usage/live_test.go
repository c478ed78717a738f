package usage

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// The real Codex (build/agents) against the fake model, whose answers
// carry the rate-limit headers a ChatGPT plan's answers carry: what the
// rollout records is read back as Codex's windows.
func TestLiveCodexRecordsRateLimits(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("Hello from the fake model."))
	target, err := url.Parse(srv.URL)
	must(t, err)
	primaryReset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	secondaryReset := time.Now().Add(80 * time.Hour).Truncate(time.Second)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		h := r.Header
		h.Set("x-codex-primary-used-percent", "42.5")
		h.Set("x-codex-primary-window-minutes", "300")
		h.Set("x-codex-primary-reset-at", strconv.FormatInt(primaryReset.Unix(), 10))
		h.Set("x-codex-secondary-used-percent", "81")
		h.Set("x-codex-secondary-window-minutes", "10080")
		h.Set("x-codex-secondary-reset-at", strconv.FormatInt(secondaryReset.Unix(), 10))
		return nil
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)

	e := agentenv.Codex(t, front.URL)
	if _, stderr, err := e.Output(2*time.Minute, "exec", "say hello", "--json", "--skip-git-repo-check"); err != nil {
		t.Fatalf("codex exec: %v\n%s", err, stderr)
	}
	if testing.Verbose() {
		logRollout(t, e.Home)
	}
	r, err := New(Options{Home: e.Home}).Report()
	must(t, err)
	c := r.Codex
	if c.Files != 1 || c.Today == 0 {
		t.Fatalf("codex %+v", c)
	}
	if c.Primary == nil || *c.Primary != (Limit{UsedPercent: 42.5, WindowMinutes: 300, ResetsAt: primaryReset.UnixMilli()}) {
		t.Errorf("primary %+v, want 42.5%% of 300 min resetting at %v", c.Primary, primaryReset)
	}
	if c.Secondary == nil || *c.Secondary != (Limit{UsedPercent: 81, WindowMinutes: 10080, ResetsAt: secondaryReset.UnixMilli()}) {
		t.Errorf("secondary %+v", c.Secondary)
	}
}

// logRollout shows the token_count lines Codex wrote (go test -v).
func logRollout(t *testing.T, home string) {
	files, _ := filepath.Glob(filepath.Join(home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, `"token_count"`) {
				t.Log(l)
			}
		}
	}
}
