package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
)

// Hook is one report the agent's hooks sent into its pane while it printed
// a capture (`osfoundry pane report|notify`), at Offset bytes of output:
// one line of a capture's <name>.hooks.jsonl beside its .raw.
type Hook struct {
	Offset  int             `json:"offset"`
	Kind    string          `json:"kind"` // "report" or "notify"; others are not state
	Arg     string          `json:"arg,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// HooksSuffix names the file of a capture's hook reports: the .raw's name
// with this in place of ".raw".
const HooksSuffix = ".hooks.jsonl"

// DefaultSettle is how long the last screen of a capture stays before it
// is judged: the recorder saves a screen once output settled, and a person
// looks at a pane for longer than that. Reports with a lifetime (a hook's
// "working" under the idle prompt, detect.HookWorkingGrace) end within it.
const DefaultSettle = 3 * time.Second

// signal turns a recorded hook into what the pane's tracker is told; ok is
// false for hooks that say nothing about state (session).
func (h Hook) signal() (detect.Signal, bool) {
	var s detect.Signal
	var err error
	switch h.Kind {
	case "report":
		s, err = detect.HookReport(h.Arg)
	case "notify":
		s, err = detect.HookNotification(h.Payload)
	default:
		return detect.Signal{}, false
	}
	return s, err == nil
}

// ReadHooks reads the hook reports recorded beside the capture at rawPath;
// none (and no error) when there is no such file.
func ReadHooks(rawPath string) ([]Hook, error) {
	path := strings.TrimSuffix(rawPath, ".raw") + HooksSuffix
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading hook reports: %w", err)
	}
	var hooks []Hook
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var h Hook
		if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
			return nil, fmt.Errorf("reading %s line %d: %w", path, n, err)
		}
		hooks = append(hooks, h)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	sort.SliceStable(hooks, func(i, j int) bool { return hooks[i].Offset < hooks[j].Offset })
	return hooks, nil
}
