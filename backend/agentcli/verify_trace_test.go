package agentcli

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// files lists the regular files under dir whose name ends in ext.
func files(t *testing.T, dir, ext string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // a missing folder is no files
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// closedURL is a loopback address nothing listens on: connecting to it is
// refused at once, as with a network that is down.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// statusLog collects the live status lines of a check.
type statusLog struct {
	mu    sync.Mutex
	lines []string
}

func (s *statusLog) add(l string) { s.mu.Lock(); s.lines = append(s.lines, l); s.mu.Unlock() }
func (s *statusLog) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lines)
}

func TestVerifyArgvKeepsNoSession(t *testing.T) {
	r, _ := fakeCLI(t, "argv")
	for _, tc := range []struct {
		agent Agent
		flag  string
	}{{Claude, "--no-session-persistence"}, {Codex, "--ephemeral"}} {
		t.Run(string(tc.agent), func(t *testing.T) {
			v, err := r.Verify(context.Background(), tc.agent, VerifyOptions{})
			if err != nil || !v.SignedIn {
				t.Fatalf("verify = %+v, %v", v, err)
			}
			if !slices.Contains(v.Argv, tc.flag) {
				t.Errorf("the check would be kept in the CLI's history: %s missing from %q", tc.flag, v.Argv)
			}
		})
	}
}

func TestLiveVerifyClaudeLeavesNoHistory(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("ok"))
	e := agentenv.Claude(t, srv.URL)
	v, err := runnerFor(t, e).Verify(context.Background(), Claude, VerifyOptions{})
	if err != nil || !v.SignedIn {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	if got := files(t, filepath.Join(e.Home, ".claude", "projects"), ".jsonl"); len(got) > 0 {
		t.Errorf("the check left sessions in Claude Code's history: %q", got)
	}
}

func TestLiveVerifyCodexLeavesNoHistory(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("ok"))
	e := agentenv.Codex(t, srv.URL)
	r := runnerFor(t, e)
	r.o.CodexConfig = codexFakeConfig(srv.URL)
	v, err := r.Verify(context.Background(), Codex, VerifyOptions{})
	if err != nil || !v.SignedIn {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	if got := files(t, filepath.Join(e.Home, ".codex", "sessions"), ".jsonl"); len(got) > 0 {
		t.Errorf("the check left sessions in Codex's history: %q", got)
	}
}

// checkUnreachable asserts the answer of a check against a closed port:
// "Cannot reach <host>", said well before the 300 s limit, with the CLI's
// own retry line shown meanwhile.
func checkUnreachable(t *testing.T, v Verification, err error, took time.Duration, host string, st *statusLog, want string) {
	t.Helper()
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	t.Logf("%s after %s: %s", v.Label, took.Round(time.Millisecond), v.Detail)
	if v.SignedIn || !v.Unreachable || v.Label != "Cannot reach "+host {
		t.Errorf("verify = %+v, want Cannot reach %s", v, host)
	}
	if strings.Contains(v.Detail, "time limit") || !strings.Contains(v.Detail, "network") {
		t.Errorf("detail gives the wrong cause or no advice: %q", v.Detail)
	}
	lines := st.all()
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, want) }) {
		t.Errorf("no status line with %q while checking: %q", want, lines)
	}
}

func TestLiveVerifyCodexUnreachable(t *testing.T) {
	url := closedURL(t)
	e := agentenv.Codex(t, url)
	if err := os.Remove(filepath.Join(e.CodexHome(), "config.toml")); err != nil {
		t.Fatal(err) // someone with no config.toml: the default provider
	}
	r := runnerFor(t, e)
	// The default OpenAI provider (no ChatGPT login) with its base URL on
	// a port nothing listens on: Codex retries and then waits for network.
	r.o.CodexConfig = []string{`openai_base_url="` + url + `/v1"`, `check_for_update_on_startup=false`}
	st := &statusLog{}
	start := time.Now()
	v, err := r.Verify(context.Background(), Codex, VerifyOptions{OnStatus: st.add})
	checkUnreachable(t, v, err, time.Since(start), strings.TrimPrefix(url, "http://"), st, "Reconnecting")
}

func TestLiveVerifyClaudeUnreachable(t *testing.T) {
	url := closedURL(t)
	e := agentenv.Claude(t, url)
	st := &statusLog{}
	start := time.Now()
	v, err := runnerFor(t, e).Verify(context.Background(), Claude, VerifyOptions{OnStatus: st.add})
	checkUnreachable(t, v, err, time.Since(start), strings.TrimPrefix(url, "http://"), st, "Retrying")
}

func TestVerifyCancelEndsTheCheck(t *testing.T) {
	r, _ := fakeCLI(t, "hang")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	_, err := r.Verify(ctx, Claude, VerifyOptions{})
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("a cancelled check returned %v", err)
	}
}

func TestVersion(t *testing.T) {
	r, _ := fakeCLI(t, "argv")
	for _, tc := range []struct {
		agent Agent
		want  string
	}{{Claude, "2.1.328"}, {Codex, "0.169.0"}} {
		got, err := r.Version(context.Background(), tc.agent)
		if err != nil || got != tc.want {
			t.Errorf("%s version = %q, %v; want %q", tc.agent, got, err, tc.want)
		}
	}
}

// The real lines each CLI prints when its service cannot be reached, then
// no end: the check must answer from the lines, not wait out the limit.
func TestVerifyUnreachableFromStatusLines(t *testing.T) {
	r, _ := fakeCLI(t, "offline")
	for _, tc := range []struct {
		agent   Agent
		service string
		status  string
	}{
		{Claude, "Anthropic", "Retrying the connection (attempt 5 of 10)"},
		{Codex, "OpenAI", "Reconnecting... waiting for network (Connection failed: error sending request)"},
	} {
		t.Run(string(tc.agent), func(t *testing.T) {
			st := &statusLog{}
			start := time.Now()
			v, err := r.Verify(context.Background(), tc.agent, VerifyOptions{OnStatus: st.add})
			checkUnreachable(t, v, err, time.Since(start), tc.service, st, tc.status)
			for _, pid := range readPids(t, r) {
				if alive(pid) {
					t.Errorf("the check's process %d is still running", pid)
				}
			}
		})
	}
}

func readPids(t *testing.T, r *Runner) []int {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(r.Env().Home, "pids"))
	var out []int
	for _, f := range strings.Fields(string(b)) {
		var n int
		if _, err := fmt.Sscan(f, &n); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]string{
		"2.1.328 (Claude Code)\n":     "2.1.328",
		"codex-cli 0.169.0":           "0.169.0",
		"codex-cli 0.170.0-alpha.3\n": "0.170.0-alpha.3",
		"v1.2":                        "1.2",
		"no digits":                   "",
	} {
		if got := parseVersion(in); got != want {
			t.Errorf("parseVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// A CLI that keeps retrying without a line that settles it: after the
// grace period the check answers "Cannot reach" from its last retry line.
func TestVerifyUnreachableAfterGrace(t *testing.T) {
	old := reachGrace
	reachGrace = time.Second
	defer func() { reachGrace = old }()
	r, _ := fakeCLI(t, "retrying")
	st := &statusLog{}
	start := time.Now()
	v, err := r.Verify(context.Background(), Codex, VerifyOptions{OnStatus: st.add})
	checkUnreachable(t, v, err, time.Since(start), "OpenAI", st, "Reconnecting... 2/5")
	if !strings.Contains(v.Detail, "still retrying after 1s: Reconnecting... 2/5") {
		t.Errorf("detail: %q", v.Detail)
	}
	for _, pid := range readPids(t, r) {
		if alive(pid) {
			t.Errorf("the check's process %d is still running", pid)
		}
	}
}
