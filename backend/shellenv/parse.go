package shellenv

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/lazy"
)

// maxOutput caps what is kept of the shell's stdout: an environment is a
// few KB; an rc that prints megabytes of noise must not grow the app.
const (
	maxOutput = 4 << 20
	maxStderr = 64 << 10
)

// between returns what was printed between the first two occurrences of
// marker. Everything outside (rc files' greetings, fortune cookies, binary
// garbage) is ignored; the marker is random per run, so nothing an rc
// prints can forge it.
func between(out []byte, marker string) ([]byte, bool) {
	m := []byte(marker)
	i := bytes.Index(out, m)
	if i < 0 {
		return nil, false
	}
	rest := out[i+len(m):]
	j := bytes.Index(rest, m)
	if j < 0 {
		return nil, false
	}
	return rest[:j], true
}

// parseEnv reads `env -0` output (NUL-separated), or plain `env` output
// (one per line; a line that is not NAME=… continues the previous value)
// from a system whose env has no -0.
func parseEnv(b []byte) map[string]string {
	out := map[string]string{}
	if bytes.IndexByte(b, 0) >= 0 {
		for _, kv := range bytes.Split(b, []byte{0}) {
			if name, val, ok := strings.Cut(string(kv), "="); ok && validName(name) {
				out[name] = val
			}
		}
		return out
	}
	last := ""
	for _, line := range strings.Split(string(b), "\n") {
		if name, val, ok := strings.Cut(line, "="); ok && validName(name) {
			out[name], last = val, name
		} else if last != "" {
			out[last] += "\n" + line
		}
	}
	return out
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'A' && r <= 'Z') && !(r >= 'a' && r <= 'z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// csi matches terminal control sequences (colours, cursor moves) that
// prompts and greetings print.
var csi = lazy.Regexp(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// clean turns a shell's stderr into one readable line for an error
// message: valid UTF-8, no control characters, the job-control complaints
// every interactive shell without a terminal prints left out, at most max
// bytes.
func clean(b []byte, max int) string {
	var lines []string
	for _, line := range strings.Split(strings.ToValidUTF8(string(b), "\uFFFD"), "\n") {
		if strings.Contains(line, "no job control in this shell") ||
			strings.Contains(line, "cannot set terminal process group") ||
			strings.Contains(line, "can't access tty") {
			continue
		}
		line = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) || r == utf8.RuneError {
				return -1
			}
			return r
		}, csi().ReplaceAllString(line, ""))
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	s := strings.Join(lines, " / ")
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "") + "…"
	}
	return s
}

// markerBuf keeps the shell's stdout (capped) and closes got once two
// markers are in. Each write is searched once (from just before where the
// last search ended), so megabytes of rc noise cost linear time.
type markerBuf struct {
	marker string
	mu     sync.Mutex
	b      []byte
	got    chan struct{}
	found  int // markers seen so far (0, 1, 2)
	next   int // where the next search starts
}

func (m *markerBuf) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.b) < maxOutput {
		m.b = append(m.b, p[:min(len(p), maxOutput-len(m.b))]...)
	}
	for m.found < 2 {
		i := bytes.Index(m.b[m.next:], []byte(m.marker))
		if i < 0 {
			m.next = max(m.next, len(m.b)-len(m.marker)+1)
			break
		}
		m.found++
		m.next += i + len(m.marker)
		if m.found == 2 {
			close(m.got)
		}
	}
	return len(p), nil
}

func (m *markerBuf) between() ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return between(m.b, m.marker)
}

// capBuf keeps the first max bytes written.
type capBuf struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (c *capBuf) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.b) < c.max {
		c.b = append(c.b, p[:min(len(p), c.max-len(c.b))]...)
	}
	return len(p), nil
}

func (c *capBuf) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.b...)
}
