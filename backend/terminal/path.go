package terminal

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// lookPath finds name in the PATH of env (not the app's own PATH: a pane
// may run with a different environment).
func lookPath(name string, env []string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		if isExec(name) {
			return name, nil
		}
		return "", errors.New("no such executable file")
	}
	path := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(k, "PATH") {
			path = v
		}
	}
	exts := []string{""}
	if runtime.GOOS == "windows" {
		exts = []string{"", ".exe", ".cmd", ".bat", ".com"}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		for _, ext := range exts {
			if p := filepath.Join(dir, name+ext); isExec(p) {
				return p, nil
			}
		}
	}
	return "", errors.New("not in PATH")
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode()&0o111 != 0
}

// maxCommandLine bounds a command line shown in the rail.
const maxCommandLine = 200

// commandLine joins a program and its arguments for display, quoting the
// arguments that hold spaces or quotes.
func commandLine(name string, args []string) string {
	var b strings.Builder
	b.WriteString(name)
	for _, a := range args {
		b.WriteByte(' ')
		if a == "" || strings.ContainsAny(a, " \t\n'\"") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		b.WriteString(a)
		if b.Len() > maxCommandLine {
			break
		}
	}
	s := b.String()
	if len(s) > maxCommandLine {
		s = strings.ToValidUTF8(s[:maxCommandLine], "") + "…"
	}
	return s
}
