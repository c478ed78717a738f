package panestate

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/osfoundry/desktop/backend/terminal"
)

// Codex 0.169 runs every conversation of a CODEX_HOME in one detached
// `codex app-server --managed-daemon` (its own session, inherited by
// whichever codex started first), so no process of the pane holds the
// rollout open; only `--no-daemon` does. The pane's conversation is then
// the rollout Codex created for the pane's folder after the pane started
// (its session_meta timestamp: Codex creates the thread with the first
// message), told apart from another pane's in the same folder by its
// first message being on the pane's screen.

// rolloutInfo is what a rollout says about its conversation.
type rolloutInfo struct {
	Session terminal.Session
	Cwd     string
	Started time.Time // session_meta's timestamp: when Codex created the thread
	First   string    // the user's first message, "" before one was written
}

// codexThreadFor picks pane p's rollout under sessions, or none while it
// cannot be told from another pane's. others are the folders of the other
// panes whose Codex conversation is looked for.
func codexThreadFor(sessions string, p paneView, now time.Time, taken func(string) bool, others []string) (terminal.Session, bool) {
	dir := sameDir(p.dir)
	// A second of slack for clocks: the thread is created after the pane
	// starts, never before.
	since := p.started.Add(-time.Second)
	var cands []rolloutInfo
	for _, f := range rolloutFiles(sessions, since, now) {
		if taken(f) || modTime(f).Before(since) {
			continue
		}
		ri, ok := readRollout(f)
		if !ok || ri.Started.Before(since) || sameDir(ri.Cwd) != dir {
			continue
		}
		cands = append(cands, ri)
	}
	screen := squash(p.screen)
	var best rolloutInfo
	for _, c := range cands {
		if first := squash(c.First); first != "" && strings.Contains(screen, first[:min(len(first), 40)]) && c.Started.After(best.Started) {
			best = c
		}
	}
	if best.Session.ID != "" {
		return best.Session, true
	}
	// Nothing on screen names one (the message scrolled away): the newest
	// is this pane's only when no other pane runs Codex in the folder.
	for _, o := range others {
		if sameDir(o) == dir {
			return terminal.Session{}, false
		}
	}
	for _, c := range cands {
		if c.Started.After(best.Started) {
			best = c
		}
	}
	return best.Session, best.Session.ID != ""
}

// paneView is what codexThreadFor reads of a pane.
type paneView struct {
	dir     string
	started time.Time
	screen  string
}

// rolloutFiles lists the rollouts in the day folders from since to now
// (Codex names them by local time; a day either side is looked at).
func rolloutFiles(sessions string, since, now time.Time) []string {
	var out []string
	for day := since.Add(-24 * time.Hour); !day.After(now.Add(24 * time.Hour)); day = day.Add(24 * time.Hour) {
		folder := filepath.Join(sessions, day.Format("2006"), day.Format("01"), day.Format("02"))
		ents, _ := os.ReadDir(folder)
		for _, e := range ents {
			if name := e.Name(); strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl") {
				out = append(out, filepath.Join(folder, name))
			}
		}
	}
	return out
}

// readRollout reads a rollout's session_meta and its first user message
// (the records before it are Codex's own instructions and context).
func readRollout(path string) (rolloutInfo, bool) {
	f, err := os.Open(path)
	if err != nil {
		return rolloutInfo{}, false
	}
	defer f.Close()
	// The first record carries the model's whole instructions: tens of KB.
	r := bufio.NewReaderSize(io.LimitReader(f, 8<<20), 64<<10)
	var ri rolloutInfo
	for n := 0; n < 64; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var rec struct {
				Type    string `json:"type"`
				Payload struct {
					ID        string    `json:"id"`
					Cwd       string    `json:"cwd"`
					Timestamp time.Time `json:"timestamp"`
					Type      string    `json:"type"`
					Role      string    `json:"role"`
					Content   []struct {
						Type string `json:"type"`
						Text string `json:"text"`
					} `json:"content"`
				} `json:"payload"`
			}
			if json.Unmarshal(line, &rec) != nil {
				return ri, ri.Session.ID != ""
			}
			pl := rec.Payload
			switch {
			case n == 0:
				if rec.Type != "session_meta" || !validSessionID(pl.ID) {
					return rolloutInfo{}, false
				}
				ri.Session, ri.Cwd, ri.Started = terminal.Session{ID: pl.ID, File: path}, pl.Cwd, pl.Timestamp
			case rec.Type == "response_item" && pl.Type == "message" && pl.Role == "user":
				for _, c := range pl.Content {
					// Context Codex sends as the user's (<environment_context>, …).
					if c.Type == "input_text" && !strings.HasPrefix(strings.TrimSpace(c.Text), "<") {
						ri.First = c.Text
						return ri, true
					}
				}
			}
		}
		if err != nil {
			break
		}
	}
	return ri, ri.Session.ID != ""
}

// squash drops every space, so a message reads the same wrapped on the
// screen (with Codex's indent) as in the rollout.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
