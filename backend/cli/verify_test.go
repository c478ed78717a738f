package cli

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
)

// A Claude Code whose service cannot be reached: the command shows the
// CLI's retry lines while it waits and answers "Cannot reach" within 20 s
// with its own exit status, instead of spinning for the 300 s limit.
func TestLiveVerifyCommandUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	e := agentenv.Claude(t, "http://"+addr)
	useEnv(t, e)
	var out, errb bytes.Buffer
	start := time.Now()
	code := Run(&Env{Stdout: &out, Stderr: &errb}, []string{"verify", "claude"})
	took := time.Since(start)
	t.Logf("exit %d after %s\nstdout: %s\nstderr: %s", code, took.Round(time.Millisecond), out.String(), errb.String())
	if code != 3 || !strings.HasPrefix(out.String(), "Cannot reach "+addr+" (Claude Code ") {
		t.Errorf("exit %d, stdout %q; want 3 and Cannot reach %s", code, out.String(), addr)
	}
	if !strings.Contains(out.String(), "Check your network connection") {
		t.Errorf("no advice: %q", out.String())
	}
	if !strings.Contains(errb.String(), "Retrying the connection (attempt") {
		t.Errorf("no live status line on stderr: %q", errb.String())
	}
	if took > 20*time.Second {
		t.Errorf("answered after %s", took)
	}
}

// Codex, whose HTTPS goes through a proxy nothing listens on (what a
// network or proxy outage looks like to it): its "Reconnecting…" lines on
// stderr, then "Cannot reach OpenAI" within 20 s.
func TestLiveVerifyCommandCodexUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	proxy := "http://" + l.Addr().String()
	l.Close()
	e := agentenv.Codex(t, proxy)
	useEnv(t, e)
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"} {
		t.Setenv(k, proxy)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	var out, errb bytes.Buffer
	start := time.Now()
	code := Run(&Env{Stdout: &out, Stderr: &errb}, []string{"verify", "codex"})
	took := time.Since(start)
	t.Logf("exit %d after %s\nstdout: %s\nstderr: %s", code, took.Round(time.Millisecond), out.String(), errb.String())
	if code != 3 || !strings.HasPrefix(out.String(), "Cannot reach OpenAI (Codex ") {
		t.Errorf("exit %d, stdout %q; want 3 and Cannot reach OpenAI", code, out.String())
	}
	if !strings.Contains(errb.String(), "Reconnecting") {
		t.Errorf("no live status line on stderr: %q", errb.String())
	}
	if took > 20*time.Second {
		t.Errorf("answered after %s", took)
	}
}
