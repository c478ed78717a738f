package terminal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Service is the Terminal screen's binding: thin methods with concrete
// types over the Manager.
type Service struct {
	m   *Manager
	env func() []string
}

// NewService binds the Manager. env returns the environment new panes get
// (nil: the app's own).
func NewService(m *Manager, env func() []string) *Service {
	if env == nil {
		env = os.Environ
	}
	return &Service{m: m, env: env}
}

// CreateRequest is what the "New pane" form sends.
type CreateRequest struct {
	Dir     string `json:"dir"`     // empty: home folder; "~/x" expands
	Command string `json:"command"` // empty: the user's shell
	Cols    int    `json:"cols"`
	Rows    int    `json:"rows"`
}

// Create starts a pane. The command line is split into argv like a shell
// would split words (quotes and backslashes), but nothing is expanded or
// interpreted: no variables, globs, pipes or command substitution.
func (s *Service) Create(req CreateRequest) (Info, error) {
	argv, err := SplitCommand(req.Command)
	if err != nil {
		return Info{}, err
	}
	dir, err := expandHome(strings.TrimSpace(req.Dir))
	if err != nil {
		return Info{}, err
	}
	info, err := s.m.Create(Options{Dir: dir, Argv: argv, Env: s.env(), Cols: req.Cols, Rows: req.Rows})
	if err != nil {
		return Info{}, err
	}
	if fs := s.m.folders(); fs != nil {
		if err := fs.UseFolder(info.Dir); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err) // the pane runs; only the suggestion is lost
		}
	}
	return info, nil
}

// FolderStore remembers the folders panes were started in (the pane store
// does, when it has these methods).
type FolderStore interface {
	UseFolder(dir string) error
	Folders() ([]string, error) // most recently used first
}

func (m *Manager) folders() FolderStore {
	m.mu.Lock()
	defer m.mu.Unlock()
	fs, _ := m.specs.(FolderStore)
	return fs
}

// Folders lists the folders the New pane form offers, the last one used
// first; folders that no longer exist are left out.
func (s *Service) Folders() []string {
	fs := s.m.folders()
	if fs == nil {
		return []string{}
	}
	dirs, err := fs.Folders()
	if err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
		return []string{}
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// restoreWait bounds how long the rail's first list waits for restored
// panes (their shells normally start within a few hundred ms).
const restoreWait = 5 * time.Second

// RestoreSaved starts the panes that were open at the last quit. The
// window calls it once its first frame is on screen; later calls do
// nothing (see Manager.ExpectRestore).
func (s *Service) RestoreSaved() error { return s.m.RestoreExpected(s.env()) }

// List returns the panes for the rail, including the restored ones while
// they are still starting (see Manager.ExpectRestore).
func (s *Service) List() []Info {
	s.m.awaitRestore(restoreWait)
	return s.m.List()
}

// Close ends a pane and everything it started.
func (s *Service) Close(id string) error { return s.m.Close(id) }

// Pause freezes everything running in a pane until Resume.
func (s *Service) Pause(id string) error { return s.m.Pause(id) }

// Resume continues a paused pane.
func (s *Service) Resume(id string) error { return s.m.Resume(id) }

// Input types keystrokes or pasted text into a pane.
func (s *Service) Input(id, data string) error {
	p, err := s.m.Get(id)
	if err != nil {
		return err
	}
	_, err = p.Write([]byte(data))
	return err
}

// Resize follows the view's size.
func (s *Service) Resize(id string, cols, rows int) error {
	p, err := s.m.Get(id)
	if err != nil {
		return err
	}
	return p.Resize(cols, rows)
}

// Attachment is what a view draws when it attaches to a pane.
type Attachment struct {
	Seq  uint64 `json:"seq"`  // apply only output events after this
	Data []byte `json:"data"` // base64 in JSON
}

// Attach returns the pane's current contents for a fresh view; from now
// on the pane's output is sent as events until the view calls Detach.
func (s *Service) Attach(id string) (Attachment, error) {
	seq, data, err := s.m.Attach(id)
	if err != nil {
		return Attachment{}, err
	}
	return Attachment{Seq: seq, Data: data}, nil
}

// Detach says a view that attached to pane id is gone; a pane no view
// shows sends no output events (its output stays in the pane's buffer).
func (s *Service) Detach(id string) {
	s.m.Detach(id)
}

// ScreenText returns the visible screen as text (tests, tools).
func (s *Service) ScreenText(id string) ([]string, error) {
	p, err := s.m.Get(id)
	if err != nil {
		return nil, err
	}
	return p.Screen().Lines, nil
}

// DefaultShell names the shell an empty command runs.
func (s *Service) DefaultShell() string { return DefaultShell() }

func expandHome(dir string) (string, error) {
	if dir == "" || dir == "~" || strings.HasPrefix(dir, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the home folder: %w", err)
		}
		return filepath.Join(home, strings.TrimPrefix(strings.TrimPrefix(dir, "~"), "/")), nil
	}
	return dir, nil
}

// ErrUnclosedQuote: a command line ends inside quotes.
var ErrUnclosedQuote = errors.New("the command has an unclosed quote — close it or remove it")

// SplitCommand splits a command line into words: whitespace separates,
// '…' keeps everything literal, "…" keeps spaces and allows \" and \\,
// and a backslash outside quotes escapes the next character.
func SplitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	esc := false
	for _, r := range s {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				esc = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			esc, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || esc {
		return nil, ErrUnclosedQuote
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
