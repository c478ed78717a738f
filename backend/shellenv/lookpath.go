package shellenv

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// LookPathIn finds name in the PATH of env (not the process's own: a
// child may run with another environment). A name with a separator is
// only checked for being an executable file.
func LookPathIn(name string, env []string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		if isExecFile(name) {
			return name, nil
		}
		return "", errors.New("no such executable file")
	}
	exts := []string{""}
	if runtime.GOOS == "windows" {
		exts = []string{"", ".exe", ".cmd", ".bat", ".com"}
	}
	for _, dir := range filepath.SplitList(GetIn(env, "PATH")) {
		if dir == "" {
			continue
		}
		for _, ext := range exts {
			if p := filepath.Join(dir, name+ext); isExecFile(p) {
				return p, nil
			}
		}
	}
	return "", errors.New("not in PATH")
}

func isExecFile(p string) bool {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode()&0o111 != 0
}

// sameName: environment names ignore case on Windows.
func sameName(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// GetIn is name's value in env (the last entry wins, as for exec).
func GetIn(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && sameName(k, name) {
			v = val
		}
	}
	return v
}

// setIn returns env with name set to value, replacing every entry of it.
func setIn(env []string, name, value string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); ok && sameName(k, name) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, name+"="+value)
}
