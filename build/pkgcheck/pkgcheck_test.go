// Package pkgcheck checks the packaging sources that no platform build here
// can exercise end to end: the macOS Info.plist (filled in by
// build/scripts/package-macos.sh plist), the Windows resource configs (by
// build/scripts/package-windows.sh winres), the NSIS installer script and
// the release workflow. It holds tests only and is never imported.
//
// Every check is a function from the file's content to a list of problems,
// so each test runs it on the real file (no problems) and on a broken copy
// (the problem is named): a check that cannot fail fails its own test.
package pkgcheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// root is the repository root: go test runs in build/pkgcheck.
const root = "../.."

func readFile(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatalf("reading %s: %v", rel, err)
	}
	return b
}

// runScript runs a packaging script under bash with VERSION and extra set,
// and every MACOS_* variable of the caller's environment removed. It returns
// stdout, stderr and whether it succeeded.
func runScript(t *testing.T, version string, extra []string, script string, args ...string) (string, string, bool) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the packaging scripts run under bash on Linux and macOS")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	cmd := exec.Command(bash, append([]string{filepath.Join(root, script)}, args...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MACOS_") && !strings.HasPrefix(kv, "VERSION=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "VERSION="+version)
	cmd.Env = append(cmd.Env, extra...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		t.Fatalf("running %s: %v", script, err)
	}
	return stdout.String(), stderr.String(), err == nil
}

// expectProblems fails unless problems is empty (want == "") or one of them
// contains want.
func expectProblems(t *testing.T, problems []string, want string) {
	t.Helper()
	if want == "" {
		for _, p := range problems {
			t.Error(p)
		}
		return
	}
	for _, p := range problems {
		if strings.Contains(p, want) {
			return
		}
	}
	t.Errorf("the check found %q, want a problem mentioning %q", problems, want)
}
