package agentcli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// flagProbe asks a binary which flags it knows (`codex exec --help`) and
// caches the answer per binary path, size and modification time, so an
// upgrade in place is noticed and an unchanged binary is asked once.
type flagProbe struct {
	mu    sync.Mutex
	cache map[probeKey]string
	// run is exec in production; tests count calls through it.
	run func(ctx context.Context, argv []string, env []string) ([]byte, error)
}

type probeKey struct {
	path  string
	size  int64
	mtime int64
	args  string
}

func newFlagProbe() *flagProbe {
	return &flagProbe{cache: map[probeKey]string{}, run: runHelp}
}

func runHelp(ctx context.Context, argv []string, env []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	setGroup(cmd)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	killGroup(cmd)
	return out.Bytes(), err
}

// help returns the output of `bin args…`.
func (p *flagProbe) help(ctx context.Context, bin string, env []string, args ...string) (string, error) {
	st, err := os.Stat(bin)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", bin, err)
	}
	key := probeKey{path: bin, size: st.Size(), mtime: st.ModTime().UnixNano(), args: fmt.Sprint(args)}
	p.mu.Lock()
	text, ok := p.cache[key]
	p.mu.Unlock()
	if ok {
		return text, nil
	}
	out, err := p.run(ctx, append([]string{bin}, args...), env)
	if err != nil {
		return "", fmt.Errorf("asking %s for its flags (%v): %w: %s", bin, args, err, tail(out, 400))
	}
	p.mu.Lock()
	p.cache[key] = string(out)
	p.mu.Unlock()
	return string(out), nil
}

// hasFlag reports whether `bin args… --help` lists flag. A binary that
// cannot even print its help is reported as an error: the run would fail
// the same way.
func (p *flagProbe) hasFlag(ctx context.Context, bin string, env []string, flag string, args ...string) (bool, error) {
	text, err := p.help(ctx, bin, env, append(args, "--help")...)
	if err != nil {
		return false, err
	}
	return containsFlag(text, flag), nil
}

// containsFlag matches flag as a whole word in help text (so --ignore-rules
// is not found inside --ignore-rules-file).
func containsFlag(help, flag string) bool {
	for i := 0; ; {
		j := bytes.Index([]byte(help[i:]), []byte(flag))
		if j < 0 {
			return false
		}
		end := i + j + len(flag)
		beforeOK := i+j == 0 || !isFlagChar(help[i+j-1])
		afterOK := end == len(help) || !isFlagChar(help[end])
		if beforeOK && afterOK {
			return true
		}
		i = end
	}
}

func isFlagChar(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(bytes.TrimSpace(b))
}
