package board

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Summary is what the Done summary says about a session.
type Summary struct {
	Title      string
	Kind       string // set by the Board
	State      string // read fresh at the moment of ending
	Command    string // what ran (argv, model, agent)
	Dir        string // where
	Agent      string
	Started    time.Time
	Ended      time.Time // set by the Board
	Events     []Event   // what it did, oldest first
	LastScreen []string  // the pane's last visible screen, or the last message
}

// Event is one line of "what it did".
type Event struct {
	At   time.Time // zero when unknown
	Text string
}

// SummaryDir is the knowledge subfolder holding Done summaries.
const SummaryDir = "sessions"

var kindNames = map[string]string{KindChat: "Chat", KindAgent: "Agent", KindTeam: "Team", KindLoop: "Loop", KindTerminal: "Terminal"}

// Markdown renders the summary. The text is the user's own session; it
// is written as is, inside a fence for the screen.
func (s Summary) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(s.Title))
	kind := kindNames[s.Kind]
	if kind == "" {
		kind = s.Kind
	}
	fmt.Fprintf(&b, "- Kind: %s\n", kind)
	if s.Agent != "" {
		fmt.Fprintf(&b, "- Agent: %s\n", s.Agent)
	}
	if s.Command != "" {
		fmt.Fprintf(&b, "- Ran: `%s`\n", strings.ReplaceAll(oneLine(s.Command), "`", "'"))
	}
	if s.Dir != "" {
		fmt.Fprintf(&b, "- Where: %s\n", s.Dir)
	}
	if !s.Started.IsZero() {
		fmt.Fprintf(&b, "- Started: %s\n", s.Started.Format("2006-01-02 15:04:05"))
	}
	fmt.Fprintf(&b, "- Ended: %s\n", s.Ended.Format("2006-01-02 15:04:05"))
	if !s.Started.IsZero() {
		fmt.Fprintf(&b, "- Ran for: %s\n", humanDuration(s.Ended.Sub(s.Started)))
	}
	b.WriteString("\n## What it did\n\n")
	if len(s.Events) == 0 {
		b.WriteString("Nothing was recorded while it ran.\n")
	}
	for _, e := range s.Events {
		if e.At.IsZero() {
			fmt.Fprintf(&b, "- %s\n", oneLine(e.Text))
		} else {
			fmt.Fprintf(&b, "- %s %s\n", e.At.Format("15:04:05"), oneLine(e.Text))
		}
	}
	if len(s.LastScreen) > 0 {
		b.WriteString("\n## Last screen\n\n````text\n")
		for _, l := range s.LastScreen {
			b.WriteString(strings.ReplaceAll(l, "````", "'''") + "\n")
		}
		b.WriteString("````\n")
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func humanDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	default:
		return fmt.Sprintf("%d h %d min", int(d.Hours()), int(d.Minutes())%60)
	}
}

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// fileName is "<date>-<time>-<folder>-<title>.md", readable in a file list.
func fileName(s Summary) string {
	slug := func(x string, n int) string {
		x = strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(x), "-"), "-.")
		if len(x) > n {
			x = strings.Trim(x[:n], "-.")
		}
		return x
	}
	parts := []string{s.Ended.Format("2006-01-02-150405")}
	if f := slug(filepath.Base(s.Dir), 40); f != "" && s.Dir != "" {
		parts = append(parts, f)
	}
	if t := slug(s.Title, 40); t != "" {
		parts = append(parts, t)
	}
	return strings.Join(parts, "-") + ".md"
}

// writeSummary writes the summary under <knowledge>/sessions, atomically
// (a temp file renamed into place), never over an existing file.
func writeSummary(knowledge string, s Summary) (string, error) {
	dir := filepath.Join(knowledge, SummaryDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("writing the session summary: creating %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".summary-*")
	if err != nil {
		return "", fmt.Errorf("writing the session summary in %s: %w", dir, err)
	}
	_, werr := tmp.WriteString(s.Markdown())
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("writing the session summary: %w", werr)
	}
	name := fileName(s)
	path := filepath.Join(dir, name)
	for i := 2; ; i++ {
		// Link, not rename: it fails instead of replacing another summary.
		if err := os.Link(tmp.Name(), path); err == nil {
			break
		} else if !os.IsExist(err) || i > 99 {
			os.Remove(tmp.Name())
			return "", fmt.Errorf("writing the session summary %s: %w", path, err)
		}
		path = filepath.Join(dir, strings.TrimSuffix(name, ".md")+fmt.Sprintf("-%d.md", i))
	}
	os.Remove(tmp.Name())
	return path, nil
}

func removeSummary(path string) { os.Remove(path) }
