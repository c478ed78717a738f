package board

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
)

// Summary is what the Done summary says about a session.
type Summary struct {
	Title    string
	Kind     string // set by the Board
	State    string // read fresh at the moment of ending
	Command  string // what ran (argv, model, agent)
	Dir      string // where
	Agent    string // the agent's display name ("Claude Code")
	AgentCLI string // its CLI's rules name ("claude"): how its own sessions are found
	// SessionID is the agent's own session id; Resume the command line that
	// continues it (set by the Board from its AgentSessions when the source
	// does not know them). The notes say why one is missing.
	SessionID   string
	Resume      string
	SessionNote string
	ResumeNote  string
	// SearchStore: the source cannot know the session (a CLI typed into a
	// shell reports none), so the agent's store may be searched by folder
	// and time; SessionHow then says the id was found that way.
	SearchStore bool
	SessionHow  string
	Started     time.Time
	Ended       time.Time // set by the Board
	Events      []Event   // what it did, oldest first
	LastScreen  []string  // the pane's last visible screen, or the last message
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
		fmt.Fprintf(&b, "- Ran: `%s`\n", code(s.Command))
	}
	if s.Dir != "" {
		fmt.Fprintf(&b, "- Where: %s\n", s.Dir)
	}
	switch {
	case s.SessionID != "" && s.SessionHow != "":
		fmt.Fprintf(&b, "- Agent session: `%s` (%s)\n", code(s.SessionID), oneLine(s.SessionHow))
	case s.SessionID != "":
		fmt.Fprintf(&b, "- Agent session: `%s`\n", code(s.SessionID))
	case s.SessionNote != "":
		fmt.Fprintf(&b, "- Agent session: %s\n", oneLine(s.SessionNote))
	}
	switch {
	case s.Resume != "":
		fmt.Fprintf(&b, "- Resume: `%s`\n", code(s.Resume))
	case s.ResumeNote != "":
		fmt.Fprintf(&b, "- Resume: %s\n", oneLine(s.ResumeNote))
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
		last := "Last message" // a chat's or run's
		if s.Kind == KindTerminal {
			last = "Last screen"
		}
		fmt.Fprintf(&b, "\n## %s\n\n````text\n", last)
		for _, l := range s.LastScreen {
			b.WriteString(strings.ReplaceAll(l, "````", "'''") + "\n")
		}
		b.WriteString("````\n")
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// code fits s into an inline code span: one line, no backtick to end it.
func code(s string) string { return strings.ReplaceAll(oneLine(s), "`", "'") }

// agentName is the agent's display name, else its CLI name.
func (s Summary) agentName() string {
	if s.Agent != "" {
		return s.Agent
	}
	return s.AgentCLI
}

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

var unsafeName = lazy.Regexp(`[^a-zA-Z0-9._-]+`)

// fileName is "<date>-<time>-<folder>-<title>.md", readable in a file list.
func fileName(s Summary) string {
	slug := func(x string, n int) string {
		x = strings.Trim(unsafeName().ReplaceAllString(strings.ToLower(x), "-"), "-.")
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

// rewriteSummary replaces a summary this board wrote with a completed one
// (atomically: a temp file renamed over it).
func rewriteSummary(path string, s Summary) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".summary-*")
	if err != nil {
		return fmt.Errorf("completing the session summary: %w", err)
	}
	_, werr := tmp.WriteString(s.Markdown())
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("completing the session summary: %w", werr)
	}
	return nil
}

// ErrNotSummary: the viewer asked for a file that is not a session summary.
var ErrNotSummary = errors.New("This is not a session summary; only the summaries in your knowledge folder's sessions/ can be opened here.")

// ErrSummaryGone: the summary file was moved or deleted since.
var ErrSummaryGone = errors.New("This summary is no longer in your knowledge folder (moved or deleted)")

// maxSummary bounds what the viewer reads (summaries are a few KB).
const maxSummary = 4 << 20

// ReadSummary reads a summary file under <knowledge>/sessions: a .md file
// that is itself there (a link out of the folder is refused).
func (b *Board) ReadSummary(path string) (string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Join(b.knowledge, SummaryDir))
	if err != nil || !filepath.IsAbs(path) || filepath.Ext(path) != ".md" {
		return "", ErrNotSummary
	}
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, os.ErrNotExist) && filepath.Dir(filepath.Clean(path)) == filepath.Join(b.knowledge, SummaryDir) {
		return "", fmt.Errorf("%w: %s", ErrSummaryGone, path)
	}
	if err != nil || filepath.Dir(real) != dir || filepath.Dir(filepath.Clean(path)) != filepath.Join(b.knowledge, SummaryDir) {
		return "", fmt.Errorf("%w (%s)", ErrNotSummary, filepath.Base(path))
	}
	f, err := os.Open(real)
	if err != nil {
		return "", fmt.Errorf("opening the summary: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", ErrNotSummary
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSummary))
	if err != nil {
		return "", fmt.Errorf("reading the summary: %w", err)
	}
	return string(data), nil
}
