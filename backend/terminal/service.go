package terminal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/acp"
)

// Service is the Terminal screen's binding: thin methods with concrete
// types over the Manager.
type Service struct {
	m   *Manager
	env func() []string
	exe string // the set-up helper (see helper); "" is this program
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
	// Branch, when set, starts the pane in a new worktree of Dir's
	// repository on a branch of its own.
	Branch *BranchRequest `json:"branch,omitempty"`
	// ACP, when set, runs the app's own Agent Client Protocol client in
	// the pane instead of Command (the form's "Agent Client Protocol").
	ACP *ACPRequest `json:"acp,omitempty"`
}

// ACPRequest names the ACP agent of a pane: one of ACPAgents by id, or
// another agent's adapter command (split like Command, never by a shell).
type ACPRequest struct {
	Agent   string `json:"agent,omitempty"`
	Adapter string `json:"adapter,omitempty"`
	// Model is asked of the agent once its session opens ("": its own);
	// the pane says when the agent offers no such model.
	Model string `json:"model,omitempty"`
}

// ACPAgents lists the ACP agents the New pane form offers.
func (s *Service) ACPAgents() []acp.Agent { return acp.Agents }

// argvOf is the program a new pane runs. An ACP pane runs this program's
// own `acp` command (s.helper), so it works without `osfoundry` on PATH.
func (s *Service) argvOf(req CreateRequest) ([]string, error) {
	if req.ACP == nil {
		return SplitCommand(req.Command)
	}
	if strings.TrimSpace(req.Command) != "" {
		return nil, errors.New("a pane runs either a command or an ACP agent, not both")
	}
	var adapter []string
	if req.ACP.Agent != "" {
		a, ok := acp.FindAgent(req.ACP.Agent)
		if !ok {
			return nil, fmt.Errorf("unknown ACP agent %q", req.ACP.Agent)
		}
		adapter = a.Argv
	} else {
		var err error
		if adapter, err = SplitCommand(req.ACP.Adapter); err != nil {
			return nil, err
		}
		if len(adapter) == 0 {
			return nil, errors.New("name the ACP agent's command, e.g. gemini --acp")
		}
	}
	return acp.PaneArgv(s.helper(), req.ACP.Model, adapter)
}

// Create starts a pane. The command line is split into argv like a shell
// would split words (quotes and backslashes), but nothing is expanded or
// interpreted: no variables, globs, pipes or command substitution. An ACP
// request runs this program's own ACP client instead (argvOf).
func (s *Service) Create(req CreateRequest) (Info, error) {
	argv, err := s.argvOf(req)
	if err != nil {
		return Info{}, err
	}
	dir, err := expandHome(strings.TrimSpace(req.Dir))
	if err != nil {
		return Info{}, err
	}
	var info Info
	if req.Branch != nil {
		info, err = s.createOnBranch(req, dir, argv)
	} else {
		info, err = s.m.Create(Options{Dir: dir, Argv: argv, Env: s.env(), Cols: req.Cols, Rows: req.Rows})
	}
	if err != nil {
		return Info{}, err
	}
	if fs := s.m.folders(); fs != nil {
		used := info.Dir
		if info.Branch != nil {
			used = dir // the repository, not its worktree, is what the form offers again
		}
		if err := fs.UseFolder(used); err != nil {
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

// Restoring is how many saved panes are still to come back at this start
// (0 once the restore has run).
func (s *Service) Restoring() int { return s.m.Restoring() }

// List returns the panes for the rail, including the restored ones while
// they are still starting (see Manager.ExpectRestore).
func (s *Service) List() []Info {
	s.m.awaitRestore(restoreWait)
	return s.m.List()
}

// Close ends a pane and everything it started.
func (s *Service) Close(id string) error { return s.m.Close(id) }

// Rename names a pane ("" gives it back its folder's name); the name is
// kept with the pane across restarts.
func (s *Service) Rename(id, name string) (Info, error) { return s.m.Rename(id, name) }

// Pause freezes everything running in a pane until Resume.
func (s *Service) Pause(id string) error { return s.m.Pause(id) }

// Resume continues a paused pane.
func (s *Service) Resume(id string) error { return s.m.Resume(id) }

// Input types keystrokes or pasted text into a pane, in no particular
// order with other calls (tests and tools that send one call at a time);
// a pane view uses Type.
func (s *Service) Input(id, data string) error {
	p, err := s.m.Get(id)
	if err != nil {
		return err
	}
	_, err = p.Write([]byte(data))
	return err
}

// Type types chunk seq (numbered from 1 by the view) of what was typed in
// view into pane id, after the view's earlier chunks: Wails serves each
// call on its own goroutine, so calls can overtake each other (see
// inputOrder).
func (s *Service) Type(id, view string, seq uint64, data string) error {
	p, err := s.m.Get(id)
	if err != nil {
		return err
	}
	if err := p.Input("view:"+view, seq, []byte(data)); err != nil {
		return fmt.Errorf("typing into pane %s: %w", id, err)
	}
	return nil
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
	Seq  uint64 `json:"seq"`                   // apply only output events after this
	Data []byte `json:"data" ts_type:"string"` // base64 in JSON
	// Restored is the pane's output from the last session (base64), when
	// it still comes right before Data: the view draws it first and
	// scrolls it off its screen, so Data starts on a blank one. Only the
	// view knows its rows when it draws.
	Restored []byte `json:"restored,omitempty" ts_type:"string"`
}

// Attach returns the pane's current contents for a fresh view; from now
// on the pane's output is sent as events until the view calls Detach.
func (s *Service) Attach(id string) (Attachment, error) {
	return s.m.Attach(id)
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
