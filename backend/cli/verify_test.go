package cli

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
)

// A Claude Code whose service cannot be reached: the command shows the
// CLI's retry lines while it waits and answers "Cannot reach" after a few
// failed connections (about 20 s on a quiet machine) with its own exit
// status, instead of spinning for the 300 s limit. The count of failed
// connections is what decides, not a clock, so a loaded machine only
// makes it slower.
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
	if !strings.Contains(out.String(), "the connection failed 5 times") {
		t.Errorf("gave up without saying after how many failed connections: %q", out.String())
	}
}

// Codex, whose HTTPS goes through a proxy nothing listens on (what a
// network or proxy outage looks like to it): its "Reconnecting…" lines on
// stderr, then "Cannot reach OpenAI" once it has given up reconnecting.
func TestLiveVerifyCommandCodexUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	proxy := "http://" + l.Addr().String()
	l.Close()
	e := agentenv.Codex(t, proxy)
	useEnv(t, e)
	// The person's config would choose the sandbox's provider: this is
	// someone with no config.toml, on OpenAI.
	if err := os.Remove(filepath.Join(e.CodexHome(), "config.toml")); err != nil {
		t.Fatal(err)
	}
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
}
