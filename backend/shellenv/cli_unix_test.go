//go:build !windows

package shellenv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/cli"
)

// TestMain lets a test re-run this binary as `osfoundry <args>`: with
// OSF_SHELLENV_CLI=1 it is the command line (cli.Main, as the osfoundry
// binary runs it), started by the test with `env -i`-style environments.
func TestMain(m *testing.M) {
	if os.Getenv("OSF_SHELLENV_CLI") == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(cli.Main(args))
	}
	os.Exit(m.Run())
}

// osfoundry runs the command line with exactly env (no PATH unless given).
func osfoundry(t *testing.T, env []string, args ...string) (string, int, time.Duration) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(env, "OSF_SHELLENV_CLI=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running osfoundry %v: %v", args, err)
	}
	return string(out), code, time.Since(start)
}

// A fake Claude Code that only ~/.bashrc puts on PATH, started through
// `#!/usr/bin/env fake-node` like npm's claude is through node: it is found
// and runs only when the login shell's PATH reached the process and its
// children. It answers like a CLI that is not signed in.
func fakeClaudeHome(t *testing.T) (home, bin string) {
	t.Helper()
	home = t.TempDir()
	bin = filepath.Join(home, ".npm-global", "bin")
	files := map[string]string{
		"fake-node": "#!/bin/sh\n" +
			"case \"$2\" in --version) echo '9.9.9 (Claude Code)'; exit 0;; esac\n" +
			"echo 'Not logged in · Please run /login' >&2\nexit 1\n",
		"claude": "#!/usr/bin/env fake-node\n",
	}
	os.MkdirAll(bin, 0o755)
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rc := "export PATH=\"$HOME/.npm-global/bin:$PATH\"\n"
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, bin
}

func TestVerifyFindsClaudeFromBashrcWithNoPATH(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	home, bin := fakeClaudeHome(t)
	// env -i HOME=… SHELL=bash osfoundry verify claude: no PATH at all.
	out, code, _ := osfoundry(t, []string{"HOME=" + home, "SHELL=" + bash, "USER=nobody-in-passwd"}, "verify", "claude")
	// "Needs sign-in (Claude Code 9.9.9, <path>)": the version is the fake's.
	want := "Needs sign-in (Claude Code 9.9.9, " + filepath.Join(bin, "claude") + ")"
	if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "Not logged in") {
		t.Fatalf("osfoundry verify claude = exit %d:\n%s\nwant exit 1 with %q and the CLI's own words", code, out, want)
	}

	// With a usable PATH nothing is read: the same home, and claude is not
	// found (no shell was started to find it).
	out, code, _ = osfoundry(t, []string{"HOME=" + home, "SHELL=" + bash, "PATH=/usr/bin:/bin"}, "verify", "claude")
	if code != 1 || !strings.Contains(out, "not installed") {
		t.Fatalf("with PATH set, verify = exit %d:\n%s\nwant claude not found", code, out)
	}
}

// TestVerifyRealClaudeFromBashrc runs the pinned real Claude Code
// (`make agents` installs it into build/agents) found only through
// ~/.bashrc, with no PATH and no credentials: it must start and say it
// needs a sign-in.
func TestVerifyRealClaudeFromBashrc(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	agents, _ := filepath.Abs("../../build/agents/node_modules/.bin")
	if _, err := os.Stat(filepath.Join(agents, "claude")); err != nil {
		t.Skip("the pinned Claude Code is not installed (make agents)")
	}
	home := t.TempDir()
	rc := "export PATH=\"" + agents + ":$PATH\"\n"
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o644)
	out, code, took := osfoundry(t, []string{"HOME=" + home, "SHELL=" + bash, "IS_SANDBOX=1"}, "verify", "claude")
	want := "Needs sign-in (Claude Code 2.1.328, " + filepath.Join(agents, "claude") + ")"
	if code != 1 || !strings.Contains(out, want) {
		t.Fatalf("osfoundry verify claude = exit %d after %s:\n%s\nwant %q", code, took, out, want)
	}
	t.Logf("real Claude Code: %s", strings.ReplaceAll(strings.TrimSpace(out), "\n", " | "))
}

func TestPaneReportStartsNoShellWithPATH(t *testing.T) {
	// A HOME whose .bashrc would take 3 s: with PATH set the command line
	// must not read it (the pane hook runs on every tool use).
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte("sleep 3\n"), 0o644)
	_, _, took := osfoundry(t, []string{"HOME=" + home, "SHELL=/bin/bash", "PATH=/usr/bin:/bin"}, "version")
	if took > 2*time.Second {
		t.Fatalf("osfoundry version took %s with PATH set: a login shell was read", took)
	}
}
