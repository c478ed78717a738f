package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/osfoundry/desktop/backend/detect/replay"
	"github.com/osfoundry/desktop/backend/panehook"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
)

// Claude Code runs the app's hooks only when the app starts it
// (panehook.ClaudeSettings): a recording that wants them runs a panehook
// server of its own and this recorder as the pane helper, and saves each
// report at the byte of output it arrived at, as <fixture>.hooks.jsonl.

// HelperArg is the first argument with which the recorder's binary runs as
// the pane helper (`<recorder> pane report working`), like the app's
// `osfoundry pane …`. cmd/record hands such a run to Helper.
const HelperArg = "pane"

// Helper is the pane helper: it posts one hook report from the pane's
// environment, like `osfoundry pane report|notify|session`.
func Helper(args []string, stdin []byte, getenv func(string) string) error {
	if len(args) < 1 {
		return fmt.Errorf("pane helper: want report|notify|session")
	}
	kind, arg := args[0], ""
	if kind == "report" && len(args) > 1 {
		arg = args[1]
	}
	// The app's helper sends no payload with report; the recording keeps
	// the one the hook was given (which event, which subagent, which tool)
	// so a capture says why each report came.
	return panehook.Send(getenv, kind, arg, bytes.TrimSpace(stdin))
}

// claudeHooks starts a hook channel for one recording; the returned
// arguments (--settings with the app's hooks) and environment go to the
// Claude Code it starts, and close ends the channel.
func (r *Run) claudeHooks(s *atomic.Pointer[Session]) (args, env []string, closeFn func(), err error) {
	if r.HelperExe == "" {
		return nil, nil, nil, fmt.Errorf("recording hook reports needs the recorder's own binary as the pane helper (Run.HelperExe)")
	}
	srv, err := panehook.Start(func(rep panehook.Report) {
		// Reports before the session exists (none: the CLI is not started
		// yet) have no output to stand at.
		if sess := s.Load(); sess != nil {
			sess.addHook(rep)
		}
	})
	if err != nil {
		return nil, nil, nil, err
	}
	env = srv.Register("p-record")
	args = []string{"--settings", panehook.ClaudeSettings(r.HelperExe, true)}
	return args, env, func() { srv.Close() }, nil
}

// addHook keeps a report with the number of bytes printed so far.
func (s *Session) addHook(rep panehook.Report) {
	s.mu.Lock()
	s.hooks = append(s.hooks, replay.Hook{Offset: s.buf.Len(), Kind: rep.Kind, Arg: rep.Arg, Payload: rep.Payload})
	s.mu.Unlock()
	s.note("hook %s %s", rep.Kind, rep.Arg)
}

// hooksUpTo lists the reports that arrived within the first n bytes.
func (s *Session) hooksUpTo(n int) []replay.Hook {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []replay.Hook
	for _, h := range s.hooks {
		if h.Offset <= n {
			out = append(out, h)
		}
	}
	return out
}

// writeHooks saves reports as JSON lines, with the temp home's paths in
// their payloads as the CLI wrote them (the recorder's fixed TmpRoot keeps
// them stable between re-records).
func writeHooks(path string, hooks []replay.Hook) error {
	var b bytes.Buffer
	for _, h := range hooks {
		line, err := json.Marshal(h)
		if err != nil {
			return fmt.Errorf("encoding a hook report: %w", err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("saving %s: %w", filepath.Base(path), err)
	}
	return nil
}

// shortenClaudeRecap sets Claude Code's away-recap delay to its floor.
// 2.1.328 waits min(tengu_sedge_lantern_config.delayMs, 0.8 × prompt-cache
// TTL) after the terminal was blurred: 180 s unless the flag says
// otherwise, never under 30 s. The flag is read from the feature cache in
// ~/.claude.json (cachedGrowthBookFeatures) when the CLI cannot fetch
// flags, as offline here.
func shortenClaudeRecap(env *agentenv.Env) error {
	path := filepath.Join(env.Home, ".claude.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	var state map[string]any
	if err := json.Unmarshal(b, &state); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	state["cachedGrowthBookFeatures"] = map[string]any{"tengu_sedge_lantern_config": map[string]any{"delayMs": 30000}}
	b, err = json.MarshalIndent(state, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o600)
}
