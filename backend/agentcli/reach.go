package agentcli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
)

// A sign-in check must not spin for its whole limit when the CLI cannot
// reach its service: both CLIs retry quietly for minutes. reachWatch reads
// their own retry records and decides "cannot reach" from them:
//
//   - Claude Code 2.1.328 prints {"type":"system","subtype":"api_retry",
//     "attempt":N,"max_retries":10,"error_status":null} for a connection
//     that fails; attempt 5 comes about 8 s in (delays 0.5, 1, 2, 4 s).
//   - Codex 0.169.0 prints {"type":"error","message":"Reconnecting... 2/5
//     (…)"} and, about 10 s in, "Reconnecting... waiting for network (…)".
//
// Either CLI still retrying reachGrace after its first failed connection
// is taken as unreachable too, so the answer comes within about 20 s.
const claudeUnreachableAttempt = 5

// codexHTTPStatus finds the HTTP status in a Codex retry line such as
// "Reconnecting... 2/5 (unexpected status 401 Unauthorized: …)".
var codexHTTPStatus = lazy.Regexp(`unexpected status (\d{3})\b`)

// reachGrace is a variable so tests can shorten it.
var reachGrace = 15 * time.Second

type reachWatch struct {
	agent   Agent
	service string
	status  func(string)
	stop    context.CancelFunc

	mu    sync.Mutex
	why   string // set once the check is known unreachable
	timer *time.Timer
	last  string // the CLI's last retry line
}

func newReachWatch(a Agent, service string, status func(string), stop context.CancelFunc) *reachWatch {
	return &reachWatch{agent: a, service: service, status: status, stop: stop}
}

// retryRecord is the union of the two CLIs' records read here.
type retryRecord struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	Attempt     int    `json:"attempt"`
	MaxRetries  int    `json:"max_retries"`
	ErrorStatus *int   `json:"error_status"`
	Message     string `json:"message"`
}

func (w *reachWatch) line(b []byte) {
	var l retryRecord
	if json.Unmarshal(b, &l) != nil {
		return
	}
	switch {
	case w.agent == Claude && l.Type == "system" && l.Subtype == "api_retry":
		if l.ErrorStatus != nil {
			w.status(fmt.Sprintf("%s answered HTTP %d; retrying (attempt %d of %d)", w.service, *l.ErrorStatus, l.Attempt, l.MaxRetries))
			return
		}
		line := fmt.Sprintf("Retrying the connection (attempt %d of %d)", l.Attempt, l.MaxRetries)
		w.retrying(line)
		if l.Attempt >= claudeUnreachableAttempt {
			w.decide(fmt.Sprintf("the connection failed %d times", l.Attempt))
		}
	case w.agent == Codex && l.Type == "error" && strings.HasPrefix(l.Message, "Reconnecting"):
		if m := codexHTTPStatus().FindStringSubmatch(l.Message); m != nil {
			// The service answered (401 without a sign-in, 429, 5xx): it is
			// reachable, and Codex's own error after its retries says why.
			w.status(fmt.Sprintf("%s answered HTTP %s; %s", w.service, m[1], l.Message))
			return
		}
		w.retrying(l.Message)
		if strings.Contains(l.Message, "waiting for network") {
			w.decide(l.Message)
		}
	case w.agent == Claude && l.Type == "system" && l.Subtype == "init",
		w.agent == Codex && l.Type == "turn.started":
		w.status("Waiting for " + w.service + " to answer…")
	}
}

// retrying shows the CLI's retry line and starts the grace timer.
func (w *reachWatch) retrying(line string) {
	w.mu.Lock()
	w.last = line
	if w.timer == nil && w.why == "" {
		w.timer = time.AfterFunc(reachGrace, func() {
			w.mu.Lock()
			last := w.last
			w.mu.Unlock()
			w.decide(fmt.Sprintf("still retrying after %s: %s", reachGrace, last))
		})
	}
	w.mu.Unlock()
	w.status(line)
}

// decide marks the check unreachable and ends the CLI.
func (w *reachWatch) decide(why string) {
	w.mu.Lock()
	first := w.why == ""
	if first {
		w.why = why
	}
	w.mu.Unlock()
	if first {
		w.stop()
	}
}

func (w *reachWatch) unreachable() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.why, w.why != ""
}

func (w *reachWatch) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
	}
}

// claudeService names where Claude Code sends requests: the host of
// ANTHROPIC_BASE_URL when the user set one, else Anthropic.
func claudeService(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "ANTHROPIC_BASE_URL="); ok {
			return hostOf(v, "Anthropic")
		}
	}
	return "Anthropic"
}

// codexService names where Codex sends requests: the host of a base URL
// given in the run's -c overrides, else OpenAI.
func codexService(config []string) string {
	for _, c := range config {
		k, v, ok := strings.Cut(c, "=")
		if ok && (k == "openai_base_url" || strings.HasSuffix(k, ".base_url")) {
			return hostOf(strings.Trim(v, `"'`), "OpenAI")
		}
	}
	return "OpenAI"
}

func hostOf(raw, fallback string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return fallback
	}
	return u.Host
}

var versionRE = lazy.Regexp(`\d+\.\d+(\.\d+)?(-[0-9A-Za-z.]+)?`)

// parseVersion finds the version number in `--version` output
// ("2.1.328 (Claude Code)", "codex-cli 0.169.0").
func parseVersion(out string) string { return versionRE().FindString(out) }

// Version is the CLI's version from `<bin> --version`, asked once per
// binary (an upgrade in place is noticed: the probe keys on size and time).
func (r *Runner) Version(ctx context.Context, a Agent) (string, error) {
	bin, err := r.bin(a)
	if err != nil {
		return "", err
	}
	out, err := r.probe.help(ctx, bin, ScrubEnv(a, r.Env().Environ), "--version")
	if err != nil {
		return "", fmt.Errorf("%s at %s could not print its version: %w — reinstall or update it", a.Title(), bin, err)
	}
	v := parseVersion(out)
	if v == "" {
		return "", fmt.Errorf("%s at %s printed no version number (%q): reinstall or update it", a.Title(), bin, tail([]byte(out), 80))
	}
	return v, nil
}
