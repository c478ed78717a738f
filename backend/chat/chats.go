package chat

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
)

// Chat is one chat of the Chat screen.
type Chat struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Folder  string `json:"folder"`  // "" = the current local folder
	AgentID string `json:"agentId"` // "" = the Worker role
	// Worktree isolates every run of the chat on its own branch.
	Worktree bool `json:"worktree"`
	// PlanMode: the chat's tasks run in plan mode (planmode.go).
	PlanMode bool `json:"planMode"`
	// CLIAgent and CLISession: the CLI session the chat continues
	// ("Continue here", or the first run's session).
	CLIAgent   string `json:"cliAgent"`
	CLISession string `json:"cliSession"`
	State      string `json:"state"`
	Ended      bool   `json:"ended"`
	CreatedAt  int64  `json:"createdAt"` // epoch ms
	UpdatedAt  int64  `json:"updatedAt"`
}

// Message is one chat message. Role "error" is a failed run's message.
type Message struct {
	ID        int64  `json:"id"`
	Role      string `json:"role"`
	Text      string `json:"text"`
	RunID     string `json:"runId,omitempty"`
	CreatedAt int64  `json:"createdAt"` // epoch ms
}

// ChatDetail is a chat with its messages and runs.
type ChatDetail struct {
	Chat     Chat       `json:"chat"`
	Messages []Message  `json:"messages"`
	Runs     []runs.Run `json:"runs"`
	// Compactions are where the chat was compacted (compaction.go);
	// Compacting is the id of a compaction in progress; TooLong says the
	// last run failed for a conversation too long to send (offer Compact).
	Compactions []Compaction `json:"compactions"`
	Compacting  string       `json:"compacting,omitempty"`
	TooLong     bool         `json:"tooLong"`
}

// ErrNoChat is returned for an unknown chat id.
var ErrNoChat = errors.New("no such chat")

// NewChat is what starting a chat takes.
type NewChat struct {
	Title    string `json:"title"`
	Folder   string `json:"folder"`
	AgentID  string `json:"agentId"`
	Worktree bool   `json:"worktree"`
	PlanMode bool   `json:"planMode"`
}

// CreateChat starts an empty chat.
func (s *Service) CreateChat(ctx context.Context, n NewChat) (Chat, error) {
	if n.AgentID != "" {
		if _, err := s.roles.GetAgent(ctx, n.AgentID); err != nil {
			return Chat{}, fmt.Errorf("starting a chat with agent %s: %w", n.AgentID, err)
		}
	}
	title := strings.TrimSpace(n.Title)
	if title == "" {
		title = "New chat"
	}
	c, err := s.insertChat(ctx, Chat{Title: title, Folder: n.Folder, AgentID: n.AgentID, Worktree: n.Worktree})
	if err != nil || !n.PlanMode {
		return c, err
	}
	if err := s.savePlanMode(ctx, c.ID, true); err != nil {
		return c, err
	}
	c.PlanMode = true
	return c, nil
}

func (s *Service) insertChat(ctx context.Context, c Chat) (Chat, error) {
	now := s.now().UnixMilli()
	c.ID, c.CreatedAt, c.UpdatedAt = "chat-"+agentcli.NewRunID(), now, now
	_, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_chats(id, title, folder, agent_id, worktree, cli_agent, cli_session, created_at, updated_at)
		VALUES(?,?,?,?,?,?,?,?,?)`, c.ID, c.Title, c.Folder, c.AgentID, boolInt(c.Worktree), c.CLIAgent, c.CLISession,
		now, now)
	if err != nil {
		return Chat{}, fmt.Errorf("saving the chat: %w", err)
	}
	c.State = runs.StateIdle
	s.changed(c.ID)
	return c, nil
}

// ContinueHere opens a chat that continues a Claude Code or Codex session
// (from External agents). Its first run forks the session (`claude -p
// --resume <id> --fork-session`, `codex exec fork <id>`) so the user's own
// session file is never written; later runs continue the fork.
func (s *Service) ContinueHere(ctx context.Context, agent, sessionID, folder, title string) (Chat, error) {
	a, err := roles.ParseAgent(agent)
	if err != nil {
		return Chat{}, err
	}
	if _, err := agentcli.BuildClaude("claude", agentcli.ClaudeArgs{Prompt: "User: x", Resume: sessionID}); err != nil {
		return Chat{}, err // the id check is the builder's
	}
	if title = strings.TrimSpace(title); title == "" {
		title = "Continued " + a.Title() + " session"
	}
	c, err := s.insertChat(ctx, Chat{Title: title, Folder: folder, CLIAgent: string(a), CLISession: sessionID})
	if err != nil {
		return c, err
	}
	s.mu.Lock()
	history := s.history
	s.mu.Unlock()
	if history == nil {
		return c, nil
	}
	// The earlier conversation shows above the chat's own turns. A session
	// whose file cannot be read now still continues: the CLI reads it.
	turns, err := history(ctx, string(a), sessionID)
	if err != nil || len(turns) == 0 {
		return c, nil
	}
	now := s.now().UnixMilli()
	for _, t := range turns {
		if t.Role != "user" && t.Role != "assistant" {
			continue
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_messages(chat_id, role, text, created_at) VALUES(?,?,?,?)`,
			c.ID, t.Role, t.Text, now); err != nil {
			return c, fmt.Errorf("saving the earlier conversation: %w", err)
		}
	}
	s.changed(c.ID)
	return c, nil
}

// HistoryFunc reads the earlier messages of a CLI session made outside the
// app, oldest first (the app reads them from the session's own file).
type HistoryFunc func(ctx context.Context, agent, sessionID string) ([]agentcli.Turn, error)

// SetHistory sets where "Continue here" reads a session's earlier
// conversation from; nil shows none.
func (s *Service) SetHistory(fn HistoryFunc) {
	s.mu.Lock()
	s.history = fn
	s.mu.Unlock()
}

const chatCols = `id, title, folder, agent_id, worktree, cli_agent, cli_session, ended, created_at, updated_at, ` + planCol

func scanChat(r scanner) (Chat, error) {
	var c Chat
	var wt, ended int
	var cr, up int64
	if err := r.Scan(&c.ID, &c.Title, &c.Folder, &c.AgentID, &wt, &c.CLIAgent, &c.CLISession, &ended, &cr, &up, &c.PlanMode); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return c, ErrNoChat
		}
		return c, fmt.Errorf("reading chat: %w", err)
	}
	c.Worktree, c.Ended = wt == 1, ended == 1
	c.CreatedAt, c.UpdatedAt = cr, up
	return c, nil
}

func (s *Service) getChat(ctx context.Context, id string) (Chat, error) {
	c, err := scanChat(s.db.QueryRowContext(ctx, `SELECT `+chatCols+` FROM pipeline_chats WHERE id = ?`, id))
	if err != nil {
		return c, err
	}
	c.State, err = s.chatState(ctx, c)
	return c, err
}

// Chats lists the chats, most recently active first.
func (s *Service) Chats(ctx context.Context) ([]Chat, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+chatCols+` FROM pipeline_chats ORDER BY updated_at DESC`)
	if err != nil {
		return nil, fmt.Errorf("reading chats: %w", err)
	}
	var out []Chat
	for rows.Next() {
		c, err := scanChat(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading chats: %w", err)
	}
	for i := range out {
		if out[i].State, err = s.chatState(ctx, out[i]); err != nil {
			return nil, err
		}
	}
	if out == nil {
		out = []Chat{}
	}
	return out, nil
}

// GetChat returns a chat with its messages and runs (a running run with
// its progress so far; a frozen one reads runs.StatePaused).
func (s *Service) GetChat(ctx context.Context, id string) (ChatDetail, error) {
	c, err := s.getChat(ctx, id)
	if err != nil {
		return ChatDetail{}, err
	}
	d := ChatDetail{Chat: c, Messages: []Message{}}
	rows, err := s.db.QueryContext(ctx, `SELECT id, role, text, run_id, created_at FROM pipeline_messages WHERE chat_id = ? ORDER BY id`, id)
	if err != nil {
		return d, fmt.Errorf("reading messages: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m Message
		var at int64
		if err := rows.Scan(&m.ID, &m.Role, &m.Text, &m.RunID, &at); err != nil {
			return d, fmt.Errorf("reading messages: %w", err)
		}
		m.CreatedAt = at
		d.Messages = append(d.Messages, m)
	}
	if d.Runs, err = s.runs(ctx, `chat_id = ?`, id); err != nil {
		return d, err
	}
	if err := rows.Err(); err != nil {
		return d, err
	}
	return d, s.compactions(ctx, &d)
}

// EndChat marks a chat done (the board's Done column). A chat whose run is
// paused ends too: the frozen run is cancelled first.
func (s *Service) EndChat(ctx context.Context, id string) error {
	if run := s.activeFor(id); run != "" {
		if !s.paused(run) {
			return errors.New("This session is still running. Pause it first, then end it.")
		}
		s.Cancel(run) //nolint:errcheck // it may have just ended on its own
	}
	res, err := s.db.ExecContext(ctx, `UPDATE pipeline_chats SET ended = 1, updated_at = ? WHERE id = ?`, s.now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("ending the chat: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNoChat
	}
	s.changed(id)
	return nil
}

// DeleteChat removes a chat, its messages and runs (cancelling a run).
func (s *Service) DeleteChat(ctx context.Context, id string) error {
	s.cancelChat(id)
	if err := s.eng.DeleteChatRuns(ctx, id); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM pipeline_chats WHERE id = ?`, id); err != nil {
		return fmt.Errorf("deleting the chat: %w", err)
	}
	s.changed(id)
	return nil
}

// chatState derives the board state from what the chat shows now.
func (s *Service) chatState(ctx context.Context, c Chat) (string, error) {
	if c.Ended {
		return runs.StateDone, nil
	}
	if run := s.activeFor(c.ID); run != "" {
		if s.paused(run) {
			return runs.StatePaused, nil
		}
		if s.awaitingApproval(run) {
			return runs.StateNeedsYou, nil
		}
		return runs.StateRunning, nil
	}
	var role, text string
	err := s.db.QueryRowContext(ctx, `SELECT role, text FROM pipeline_messages WHERE chat_id = ? ORDER BY id DESC LIMIT 1`, c.ID).Scan(&role, &text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return runs.StateIdle, nil
	case err != nil:
		return "", fmt.Errorf("reading the chat's last message: %w", err)
	case role == "error":
		return runs.StateFailed, nil
	case role == "assistant" && IsQuestion(text):
		return runs.StateNeedsYou, nil
	}
	return runs.StateIdle, nil
}

// IsQuestion reports whether a message ends by asking the user something:
// its last non-empty line ends with a question mark.
func IsQuestion(text string) bool {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	last = strings.TrimRight(last, "*_` ")
	return strings.HasSuffix(last, "?") || strings.HasSuffix(last, "？")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

type scanner interface{ Scan(dest ...any) error }
