//go:build !windows

package shellenv

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// bare is the PATH a macOS app started from Finder gets.
const bare = "/usr/bin:/bin:/usr/sbin:/sbin"

// keys are exported by the rc files below and must never arrive.
var keys = []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GITHUB_TOKEN"}

// isolate gives the test a bare PATH and none of the variables Resolve
// may merge, restored afterwards.
func isolate(t *testing.T) {
	t.Helper()
	t.Setenv("PATH", bare)
	for _, n := range append(slices.Clone(Allowlist), keys...) {
		t.Setenv(n, "")
		os.Unsetenv(n)
	}
}

// home makes a temporary HOME holding files (name → content; a name
// ending in "/" is a folder, one starting with "x:" an executable).
func home(t *testing.T, files map[string]string) string {
	t.Helper()
	h := t.TempDir()
	for name, body := range files {
		mode := os.FileMode(0o644)
		if n, ok := strings.CutPrefix(name, "x:"); ok {
			name, mode = n, 0o755
		}
		p := filepath.Join(h, name)
		if strings.HasSuffix(name, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func bash(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	return p
}

// claudeFiles: a bin folder with an executable claude that only ~/.bashrc
// puts on PATH.
func claudeFiles(rc string) map[string]string {
	return map[string]string{
		"x:tools/bin/claude": "#!/bin/sh\necho 9.9.9\n",
		".bashrc":            rc,
	}
}

const addBin = `export PATH="$HOME/tools/bin:$PATH"` + "\n"

// noise is what chatty rc files print: text, binary bytes, invalid UTF-8,
// something that looks like a marker, to stdout and stderr.
const noise = `printf 'Welcome!\n\000\001\377\376 _OSF_ENV_0123456789abcdef01234567_ \xc3\x28 env -0\n'; printf '\377oops\n' >&2` + "\n"

func TestResolveFindsWhatBashrcAdds(t *testing.T) {
	sh := bash(t)
	tests := []struct {
		name string
		rc   string
	}{
		{"bashrc alone", addBin},
		{"noise before and after", noise + addBin + noise + "trap '" + `printf "bye \377\000 _OSF_ENV_"` + "' EXIT\n"},
		{"false as the last line", addBin + "false\n"},
		{"shell exits 7 after printing", addBin + "trap 'exit 7' EXIT\n"},
		{"background child holding stdout", addBin + "sleep 97.3101 &\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			h := home(t, claudeFiles(tt.rc))
			if tt.name == "noise before and after" {
				os.WriteFile(filepath.Join(h, ".bash_logout"), []byte(noise), 0o644)
			}
			if _, err := exec.LookPath("claude"); err == nil {
				t.Fatal("claude found before resolving: the test is not isolated")
			}
			start := time.Now()
			res, err := Resolve(context.Background(), Options{Shell: sh, Home: h, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			bin := filepath.Join(h, "tools", "bin")
			env := res.Environ()
			got, err := LookPathIn("claude", env)
			if err != nil || got != filepath.Join(bin, "claude") {
				t.Fatalf("claude after merge = %q, %v (PATH=%s)", got, err, GetIn(env, "PATH"))
			}
			path := filepath.SplitList(GetIn(env, "PATH"))
			if path[0] != bin || !slices.Contains(path, "/usr/bin") {
				t.Errorf("PATH = %q: want the shell's entries first and the current ones kept", path)
			}
			if !res.OK || res.Shell != sh || !slices.Contains(res.Added, bin) || res.Path != GetIn(env, "PATH") {
				t.Errorf("Result = %+v", res)
			}
			untouched(t)
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %s: a background child's open stdout was waited on", d)
			}
			waitGone(t, "97.3101")
		})
	}
}

// The window's read (Start) reaches children through Environ and LookPath
// and leaves the process's own environment as it was: GTK and WebKit read
// it from other threads while the read ends.
func TestStartMergesForChildrenOnly(t *testing.T) {
	sh := bash(t)
	isolate(t)
	h := home(t, claudeFiles(addBin+`export NVM_DIR="$HOME/.nvm" LANG=C.UTF-8`+"\n"))
	Start(Options{Shell: sh, Home: h}, "no terminal")
	want := filepath.Join(h, "tools", "bin", "claude")
	if got, err := LookPath("claude"); err != nil || got != want {
		t.Fatalf("LookPath(claude) = %q, %v; want %s", got, err, want)
	}
	env := Environ()
	if GetIn(env, "NVM_DIR") != filepath.Join(h, ".nvm") || GetIn(env, "LANG") != "C.UTF-8" {
		t.Errorf("Environ misses the allowlisted variables: NVM_DIR=%q LANG=%q", GetIn(env, "NVM_DIR"), GetIn(env, "LANG"))
	}
	if st := Status(); !st.OK || st.Reason != "no terminal" || st.Path != GetIn(env, "PATH") {
		t.Errorf("Status = %+v", st)
	}
	untouched(t)
}

func TestResolveHangingRC(t *testing.T) {
	sh := bash(t)
	tests := []struct{ name, rc, tag string }{
		{"sleep in bashrc", addBin + "sleep 98.4101\n", "98.4101"},
		{"sleep with a background child holding stdout", addBin + "sleep 98.4102 &\nsleep 98.4102\n", "98.4102"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			h := home(t, claudeFiles(tt.rc))
			const timeout = time.Second
			start := time.Now()
			res, err := Resolve(context.Background(), Options{Shell: sh, Home: h, Timeout: timeout})
			took := time.Since(start)
			if !errors.Is(err, ErrTimeout) || !res.TimedOut || res.OK {
				t.Fatalf("Resolve = %+v, %v; want a timeout", res, err)
			}
			if took > timeout+time.Second {
				t.Errorf("returned after %s; the timeout is %s", took, timeout)
			}
			if !strings.Contains(err.Error(), sh) || !strings.Contains(err.Error(), "within 1s") {
				t.Errorf("error %q does not say which shell and how long", err)
			}
			if os.Getenv("PATH") != bare {
				t.Errorf("PATH changed after a timeout: %s", os.Getenv("PATH"))
			}
			waitGone(t, tt.tag)
		})
	}
}

// An rc stopped at the timeout while it holds a lock drops it: the shell
// gets SIGHUP and runs its EXIT trap before anything is killed. pyenv's
// rehash locks ~/.pyenv/shims this way; a lock left behind made every
// later interactive bash of the person wait a minute for it.
func TestResolveTimeoutLetsExitTrapsRun(t *testing.T) {
	sh := bash(t)
	isolate(t)
	rc := addBin + `set -o noclobber; echo > "$HOME/.lock" || exit 1; set +o noclobber` + "\n" +
		`trap 'rm -f "$HOME/.lock"' EXIT` + "\n" + "sleep 97.5101\n"
	h := home(t, claudeFiles(rc))
	_, err := Resolve(context.Background(), Options{Shell: sh, Home: h, Timeout: time.Second})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Resolve: %v; want a timeout", err)
	}
	if _, err := os.Stat(filepath.Join(h, ".lock")); err == nil {
		t.Errorf("the lock the rc took is still there: its EXIT trap did not run")
	}
	waitGone(t, "97.5101")
}

func TestResolveErrors(t *testing.T) {
	sh := bash(t)
	tests := []struct {
		name  string
		rc    string
		shell string
		want  []string
	}{
		{"rc exits 3", "echo 'rc says: broken config' >&2\nexit 3\n", sh, []string{"exited with code 3", "rc says: broken config", sh}},
		{"no such shell", "", "/nonexistent/shell", []string{"/nonexistent/shell", "no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			h := home(t, map[string]string{".bashrc": addBin + tt.rc})
			res, err := Resolve(context.Background(), Options{Shell: tt.shell, Home: h, Timeout: 5 * time.Second})
			if err == nil || res.OK || res.TimedOut {
				t.Fatalf("Resolve = %+v, %v; want an error", res, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if res.Shell != tt.shell || res.Error == "" || !strings.Contains(err.Error(), res.Error) {
				t.Errorf("Result = %+v for error %q", res, err)
			}
			if strings.Contains(err.Error(), "job control") {
				t.Errorf("error %q carries the shell's job-control noise", err)
			}
			if os.Getenv("PATH") != bare {
				t.Errorf("PATH changed after an error: %s", os.Getenv("PATH"))
			}
		})
	}
}

// A ~/.profile that sources ~/.bashrc (Debian's default) gets it sourced
// once, not twice; one that does not gets it sourced by the resolver.
func TestBashrcSourcedOnce(t *testing.T) {
	sh := bash(t)
	tests := []struct {
		name    string
		profile string
		want    string
	}{
		{"profile sources bashrc", "if [ -f ~/.bashrc ]; then\n  . ~/.bashrc\nfi\n", "x"},
		{"profile without bashrc", "export FOO=1\n", "x"},
		{"commented-out mention", "# . ~/.bashrc\n", "x"},
		{"no profile", "", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			files := claudeFiles(addBin + `export LC_CTYPE="${LC_CTYPE}x"` + "\n")
			if tt.profile != "" {
				files[".profile"] = tt.profile
			}
			h := home(t, files)
			res, err := Resolve(context.Background(), Options{Shell: sh, Home: h})
			if err != nil {
				t.Fatal(err)
			}
			if got := GetIn(res.Environ(), "LC_CTYPE"); got != tt.want {
				t.Fatalf("~/.bashrc ran %d times, want once", len(got))
			}
			if _, err := LookPathIn("claude", res.Environ()); err != nil {
				t.Fatalf("claude not found: %v", err)
			}
		})
	}
}

func TestResolveDropsEntriesThatAreNotFolders(t *testing.T) {
	sh := bash(t)
	isolate(t)
	h := home(t, claudeFiles(`export PATH="$HOME/afile:$HOME/tools/bin:$HOME/missing:$PATH"`+"\n"))
	os.WriteFile(filepath.Join(h, "afile"), []byte("x"), 0o755)
	res, err := Resolve(context.Background(), Options{Shell: sh, Home: h})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.SplitList(GetIn(res.Environ(), "PATH"))
	for _, bad := range []string{filepath.Join(h, "afile"), filepath.Join(h, "missing")} {
		if slices.Contains(path, bad) {
			t.Errorf("PATH keeps %s: %q", bad, path)
		}
		if !slices.Contains(res.Dropped, bad) {
			t.Errorf("Dropped = %q, want %s reported", res.Dropped, bad)
		}
	}
	if path[0] != filepath.Join(h, "tools", "bin") {
		t.Errorf("PATH = %q", path)
	}
}

func TestResolveNeverCopiesKeys(t *testing.T) {
	sh := bash(t)
	isolate(t)
	rc := addBin + "export ANTHROPIC_API_KEY=sk-ant-x OPENAI_API_KEY=sk-oai-y GITHUB_TOKEN=ghp_z NVM_DIR=\"$HOME/.nvm\" SOMETHING_ELSE=1\n"
	h := home(t, claudeFiles(rc))
	res, err := Resolve(context.Background(), Options{Shell: sh, Home: h})
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range res.Environ() {
		name, val, _ := strings.Cut(kv, "=")
		if slices.Contains(keys, name) || name == "SOMETHING_ELSE" || strings.HasPrefix(val, "sk-") || strings.HasPrefix(val, "ghp_") {
			t.Errorf("%s reached the merged environment", name)
		}
	}
	// The allowlist does arrive: the merge ran.
	if GetIn(res.Environ(), "NVM_DIR") != filepath.Join(h, ".nvm") || !slices.Contains(res.Set, "NVM_DIR") {
		t.Errorf("NVM_DIR = %q, Set = %q", GetIn(res.Environ(), "NVM_DIR"), res.Set)
	}
	untouched(t)
}

func TestResolveZsh(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh is not installed")
	}
	isolate(t)
	h := home(t, map[string]string{
		"x:zbin/claude": "#!/bin/sh\necho 9.9.9\n",
		".zshrc":        noise + `export PATH="$HOME/zbin:$PATH"` + "\nfalse\n",
	})
	res, err := Resolve(context.Background(), Options{Shell: zsh, Home: h})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := LookPathIn("claude", res.Environ()); err != nil || got != filepath.Join(h, "zbin", "claude") {
		t.Fatalf("claude = %q, %v (PATH=%s)", got, err, res.Path)
	}
}

func TestPasswdShell(t *testing.T) {
	sh := bash(t)
	f := filepath.Join(t.TempDir(), "passwd")
	os.WriteFile(f, []byte("root:x:0:0:root:/root:/bin/sh\nme:x:1000:1000:Me,,,:/home/me:"+sh+"\ngone:x:1001:1001::/home/gone:/no/such/shell\n"), 0o644)
	tests := []struct {
		uid  int
		want string
	}{{1000, sh}, {1001, ""}, {4242, ""}}
	for _, tt := range tests {
		if got := passwdShell(f, tt.uid); got != tt.want {
			t.Errorf("passwdShell(%d) = %q, want %q", tt.uid, got, tt.want)
		}
	}
}

// untouched fails when Resolve changed the process's own environment: the
// window's GTK and WebKit threads read it without a lock, so the merge
// must only reach children.
func untouched(t *testing.T) {
	t.Helper()
	if os.Getenv("PATH") != bare {
		t.Errorf("the process's PATH changed: %s", os.Getenv("PATH"))
	}
	for _, n := range Allowlist {
		if v, ok := os.LookupEnv(n); ok {
			t.Errorf("the process's environment got %s=%s", n, v)
		}
	}
}

// waitGone fails when a process whose command line holds tag is still
// running a second after Resolve returned: the shell's process group must
// be killed, not left to finish its sleep.
func waitGone(t *testing.T, tag string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	deadline := time.Now().Add(time.Second)
	for {
		left := procsWith(tag)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left running after Resolve: %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func procsWith(tag string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil || !strings.Contains(string(b), tag) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(filepath.Dir(d), "stat")); err == nil {
			// A zombie waiting for its parent is not running.
			if f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

// BenchmarkReadLogin reads the user's login shell (nothing is merged):
// what the window pays once at start when it has no terminal. "this home"
// runs this machine's real rc files; "empty home" only the system's
// (/etc/profile), which is the resolver's own cost.
func BenchmarkReadLogin(b *testing.B) {
	for _, bc := range []struct{ name, home string }{{"this home", ""}, {"empty home", b.TempDir()}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := readLogin(context.Background(), Options{Home: bc.home, Timeout: DefaultTimeout}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
