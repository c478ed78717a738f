package inventory

import (
	"context"
	"maps"
	"strings"
	"sync"
	"time"
)

// osFoundry's Chat, Pipeline and Verify workers run `claude -p` and
// `codex exec`; both CLIs keep those sessions in their own stores like any
// other, so without care the list fills with the app's own runs. They are
// recognised three ways, strongest first:
//
//  1. the session id is one the app recorded when the run ended
//     (KnownRun, from the app's run table);
//  2. the session is headless (Claude Code records entrypoint "sdk-cli"
//     for -p; Codex records originator "codex_exec" and source "exec") and
//     its prompt has the app's shape: the conversation as "User: …" /
//     "Assistant: …" blocks, after the role's system prompt for Codex,
//     which has no system-prompt flag (agentcli.Transcript, CodexPrompt);
//  3. its branch is one the app makes for a run's worktree (osf/run-…).
//
// A person's own `claude -p "Say hello"` matches none of them.

// Time sources of Session.UpdatedMs.
const (
	TimeRecorded = "recorded" // a time the session itself records
	TimeFile     = "file"     // the file's mtime: the session records none
)

// Why a session counts as one of the app's runs (Session.RunWhy).
const (
	RunWhyRecorded = "the app recorded this session id when it ran it"
	RunWhyPrompt   = "a headless run whose prompt has the app's shape (“User: …”)"
	RunWhyBranch   = "its branch osf/run-… is one the app makes for a run"
	RunWhyVerify   = "the app's sign-in check (Verify sign-in)"
)

// verifyPrompt is agentcli.VerifyPrompt. The app asks the CLIs to keep no
// session for it (--no-session-persistence, --ephemeral), but a Codex too
// old for --ephemeral keeps one.
const verifyPrompt = "Reply with the single word: ok"

// runBranchPrefix is agentcli.BranchPrefix (this package imports no
// siblings): the branch of a run isolated in a worktree.
const runBranchPrefix = "osf/run-"

// Headless markers the CLIs record.
const (
	claudeHeadlessEntry = "sdk-cli"    // Claude Code's entrypoint for -p
	codexExecOriginator = "codex_exec" // Codex's originator for exec
)

// KnownRun is a run the app recorded a CLI session id for.
type KnownRun struct {
	SessionID string
	Title     string // the chat's title for a chat's run, else the run's
	ChatID    string
	RunID     string
}

// RunSource lists the runs the app recorded session ids for. The app
// passes its run table's reader; nil means none are known.
type RunSource func(ctx context.Context) ([]KnownRun, error)

// appPromptTask returns the person's first message from a prompt the app
// built ("User: …" blocks, optionally after a system prompt and a blank
// line), or false when the prompt does not have that shape. afterSystem
// allows the system prompt before the blocks (Codex).
func appPromptTask(prompt string, afterSystem bool) (string, bool) {
	var rest string
	switch {
	case strings.HasPrefix(prompt, "User: "):
		rest = prompt[len("User: "):]
	case strings.HasPrefix(prompt, "Assistant: "):
		_, r, ok := strings.Cut(prompt, "\n\nUser: ")
		if !ok {
			return "", true // a continued chat's history alone
		}
		rest = r
	case afterSystem:
		_, r, ok := strings.Cut(prompt, "\n\nUser: ")
		if !ok {
			return "", false
		}
		rest = r
	default:
		return "", false
	}
	task, _, _ := strings.Cut(rest, "\n\nAssistant: ")
	return strings.TrimSpace(task), true
}

// markPromptRun marks s as one of the app's runs when it is headless and
// its first prompt has the app's shape; the title becomes the person's
// task instead of the "User: …" block.
func markPromptRun(s *Session, headless bool, prompt string, afterSystem bool) {
	if strings.HasPrefix(s.Branch, runBranchPrefix) {
		s.OwnRun, s.RunWhy = true, RunWhyBranch
	}
	if !headless {
		return
	}
	if strings.TrimSpace(prompt) == verifyPrompt {
		s.OwnRun, s.RunWhy, s.Title = true, RunWhyVerify, "Verify sign-in"
		return
	}
	task, ok := appPromptTask(prompt, afterSystem)
	if !ok {
		return
	}
	if !s.OwnRun {
		s.OwnRun, s.RunWhy = true, RunWhyPrompt
	}
	if task != "" {
		s.Title = cleanText(task, 80)
	}
}

// setTime sets the session's last-used time: the recorded one, else the
// file's mtime.
func setTime(s *Session, recordedMs, mtimeNs int64) {
	if recordedMs > 0 {
		s.UpdatedMs, s.TimeFrom = recordedMs, TimeRecorded
		return
	}
	s.UpdatedMs, s.TimeFrom = mtimeNs/1e6, TimeFile
}

// recordTime keeps the newest recorded time of the line (its top-level
// "timestamp"), for readers scanning a file's tail.
func recordTime(ms *int64, line []byte) {
	if *ms == 0 {
		*ms = timeMs(field(line, "timestamp"))
	}
}

// knownRuns holds the session ids the app recorded for its runs (from a
// RunSource), read again at most once a second.
type knownRuns struct {
	mu      sync.Mutex
	src     RunSource
	byID    map[string]KnownRun
	at      time.Time
	pending bool // a read put off by runsEvery is scheduled
}

// runsEvery bounds how often the list re-reads the app's run table: the
// screen asks for the list on every change of every session file.
const runsEvery = time.Second

func (k *knownRuns) setSource(src RunSource) {
	k.mu.Lock()
	k.src, k.at = src, time.Time{}
	k.mu.Unlock()
}

// sync re-reads the run table when the last read is older than runsEvery
// and reports whether the known ids changed; later says the read was put
// off and the caller should schedule one (none is scheduled yet). A
// failing read keeps what was known.
func (k *knownRuns) sync(ctx context.Context) (changed, later bool) {
	k.mu.Lock()
	src := k.src
	if src == nil {
		k.mu.Unlock()
		return false, false
	}
	if time.Since(k.at) < runsEvery {
		later = !k.pending
		k.pending = true
		k.mu.Unlock()
		return false, later
	}
	k.at = time.Now()
	k.mu.Unlock()
	list, err := src(ctx)
	if err != nil {
		return false, false
	}
	byID := make(map[string]KnownRun, len(list))
	for _, r := range list {
		if r.SessionID != "" {
			byID[r.SessionID] = r
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if maps.Equal(byID, k.byID) {
		return false, false
	}
	k.byID = byID
	return true, false
}

// due clears the scheduled read's mark (it is running now).
func (k *knownRuns) due() {
	k.mu.Lock()
	k.pending = false
	k.mu.Unlock()
}

// apply marks s when the app recorded its id, with the title the app
// knows the run by.
func (k *knownRuns) apply(s *Session) {
	k.mu.Lock()
	r, ok := k.byID[s.ID]
	if !ok && s.ResumeID != "" {
		r, ok = k.byID[s.ResumeID]
	}
	k.mu.Unlock()
	if !ok {
		return
	}
	s.OwnRun, s.RunWhy, s.ChatID = true, RunWhyRecorded, r.ChatID
	if t := cleanText(r.Title, 200); t != "" {
		s.RunTitle, s.Title = t, t
	}
}
