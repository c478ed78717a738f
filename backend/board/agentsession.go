package board

import (
	"runtime"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
)

// AgentSessions is what the board asks of the agents' own session stores
// (Claude Code's ~/.claude/projects, Codex's rollouts, …) so a Done summary
// names the agent's session and how to resume it, and a terminal card can
// be titled by its first prompt. agent is the CLI's rules name ("claude").
type AgentSessions interface {
	// Latest is the newest session agent kept for dir that was used since
	// the given time; false when there is none.
	Latest(agent, dir string, since time.Time) (AgentSession, bool)
	// Plan is the command line that resumes agent's session id, with the
	// folder it runs in (never weakening the session's approval settings).
	Plan(agent, id string) (ResumePlan, error)
}

// AgentSession is one session in an agent's own store.
type AgentSession struct {
	ID    string
	Title string // its first prompt (or the title the agent gave it)
}

// ResumePlan is how to resume a session: Argv run in Folder.
type ResumePlan struct {
	Folder string
	Argv   []string
}

// SetSessions plugs in the agents' session stores (nil: summaries name no
// agent session).
func (b *Board) SetSessions(s AgentSessions) {
	b.mu.Lock()
	b.sessions = s
	b.mu.Unlock()
}

// agentSession fills in the summary's agent session and resume command.
func (b *Board) agentSession(s *Summary) {
	b.mu.Lock()
	as := b.sessions
	b.mu.Unlock()
	if as == nil || s.AgentCLI == "" {
		return
	}
	if s.SessionID == "" && s.SearchStore {
		if found, ok := as.Latest(s.AgentCLI, s.Dir, s.Started); ok {
			s.SessionID = found.ID
			s.SessionHow = "the newest " + s.agentName() + " session in this folder while it ran"
		}
	}
	if s.SessionID == "" {
		s.SessionNote = "not found in " + s.agentName() + "'s own session files"
		return
	}
	b.earlierActivity(s)
	plan, err := as.Plan(s.AgentCLI, s.SessionID)
	if err != nil {
		s.ResumeNote = "not available — " + err.Error()
		return
	}
	s.Resume = plan.Command()
}

// Command is the plan as one line to paste into a terminal: the folder
// change and the argv, each word quoted when the shell would split or
// expand it.
func (p ResumePlan) Command() string {
	words := make([]string, len(p.Argv))
	for i, a := range p.Argv {
		words[i] = shellWord(a)
	}
	cmd := strings.Join(words, " ")
	if p.Folder == "" {
		return cmd
	}
	if runtime.GOOS == "windows" {
		return `cd /d "` + p.Folder + `" && ` + cmd
	}
	return "cd " + shellWord(p.Folder) + " && " + cmd
}

var plainWord = lazy.Regexp(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellWord quotes s for a POSIX shell when it is not a plain word.
func shellWord(s string) string {
	if plainWord().MatchString(s) {
		return s
	}
	if runtime.GOOS == "windows" {
		return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// completeSummary adds what ending the session revealed: a paused run
// records its agent's session id only when it stops. The summary on disk
// is already complete otherwise, so a failure here changes nothing.
func (b *Board) completeSummary(src Source, id string, sum Summary, path string, art SummaryArticle) {
	if sum.SessionID != "" {
		return
	}
	after, err := src.Summary(id)
	if err != nil || after.SessionID == "" {
		return
	}
	sum.SessionID, sum.SessionNote, sum.SessionHow, sum.Resume, sum.ResumeNote = after.SessionID, "", "", "", ""
	if sum.AgentCLI == "" {
		sum.AgentCLI = after.AgentCLI
	}
	b.agentSession(&sum)
	rewriteSummary(path, sum) //nolint:errcheck // the first summary stays
	if art.Article != "" {
		b.shelve(art.Article, sum) //nolint:errcheck // the first version stays
	}
}
