package panestate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/shellenv"
)

// permissionRequestSince is the first Claude Code release with the
// PermissionRequest hook. Older releases reject settings naming unknown
// hook events, so the hook is only added when the installed one is newer.
var permissionRequestSince = [3]int{2, 0, 45}

var (
	versionMu    sync.Mutex
	versionCache = map[string]bool{} // path|size|mtime → supported
	versionRe    = lazy.Regexp(`(\d+)\.(\d+)\.(\d+)`)
)

// ClaudeSupportsPermissionRequest asks the Claude Code that argv0 names
// (`claude --version`, cached per binary) whether it has the
// PermissionRequest hook. Unknown means no: the Notification hook and the
// screen still report prompts.
func ClaudeSupportsPermissionRequest(argv0 string, env []string) bool {
	path, err := lookPath(argv0, env)
	if err != nil {
		return false
	}
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	key := fmt.Sprintf("%s|%d|%d", path, st.Size(), st.ModTime().UnixNano())
	versionMu.Lock()
	ok, cached := versionCache[key]
	versionMu.Unlock()
	if cached {
		return ok
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Env = env
	out, err := cmd.Output()
	ok = err == nil && versionAtLeast(string(out), permissionRequestSince)
	versionMu.Lock()
	versionCache[key] = ok
	versionMu.Unlock()
	return ok
}

// versionAtLeast reads the first x.y.z in s and compares it with min.
func versionAtLeast(s string, min [3]int) bool {
	m := versionRe().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	for i := 0; i < 3; i++ {
		n, _ := strconv.Atoi(m[i+1])
		if n != min[i] {
			return n > min[i]
		}
	}
	return true
}

// lookPath finds argv0 in env's PATH (the pane's), or the app's own PATH
// when env is nil.
func lookPath(argv0 string, env []string) (string, error) {
	if env == nil {
		return exec.LookPath(argv0)
	}
	return shellenv.LookPathIn(argv0, env)
}
