package chat

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
)

// Compaction: the Compaction role summarises a chat's turns so far, and
// the chat's next run is sent that summary and the turns after it instead
// of the whole conversation, in a new CLI session. Nothing is deleted: the
// person's turns stay in the chat, which shows a marker where it was
// compacted. A chat is compacted when the person presses Compact, or by
// its next run when the conversation has grown past CompactAtPercent of
// what the run can be sent (compactionDue).

// CompactAtPercent is the threshold: a run compacts the chat first when
// its prompt would pass 80% of the 120 KB one command-line argument can
// take (agentcli.MaxPromptBytes), or when the CLI session it continues
// last saw more than 80% of the model's context window. The 20% left is
// room for the new task and the answer.
const CompactAtPercent = 80

// contextWindow is each CLI's model context in tokens: Claude Code's
// models take 200,000; Codex's GPT-5 models 272,000 of input.
var contextWindow = map[agentcli.Agent]int{agentcli.Claude: 200_000, agentcli.Codex: 272_000}

// Why a chat was compacted.
const (
	CompactButton = "button" // the person pressed Compact
	CompactAuto   = "auto"   // a run found the chat past the threshold
)

// Compaction is one point where a chat was compacted.
type Compaction struct {
	ID int64 `json:"id"`
	// UptoMessageID is the last message the summary covers: the marker
	// shows after it.
	UptoMessageID int64  `json:"uptoMessageId"`
	Summary       string `json:"summary"`
	Model         string `json:"model"`
	Reason        string `json:"reason"`
	Turns         int    `json:"turns"`     // turns summarised since the previous compaction
	CreatedAt     int64  `json:"createdAt"` // epoch ms
}

// ErrNothingToCompact is returned by Compact for a chat with no turns since
// its last compaction.
var ErrNothingToCompact = errors.New("nothing to compact: the chat has no turns since it was last compacted")

const compactionComponent = "pipeline-compaction"

var compactionMigrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE pipeline_compactions (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	chat_id    TEXT NOT NULL REFERENCES pipeline_chats(id) ON DELETE CASCADE,
	upto_id    INTEGER NOT NULL,
	summary    TEXT NOT NULL,
	model      TEXT NOT NULL,
	reason     TEXT NOT NULL,
	turns      INTEGER NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX pipeline_compactions_chat ON pipeline_compactions(chat_id, id);
`}}

// compactionDue says why a run should compact its chat first, or "" when
// it need not. promptBytes is the prompt the run would be sent (0 when it
// continues a CLI session); contextTokens what that session would hold
// with the new task (0 when unknown).
func compactionDue(a agentcli.Agent, promptBytes, contextTokens int) string {
	if promptBytes*100 > agentcli.MaxPromptBytes*CompactAtPercent {
		return fmt.Sprintf("the prompt would be %d KB, over %d%% of the %d KB a command line can take",
			(promptBytes+512)>>10, CompactAtPercent, agentcli.MaxPromptBytes>>10)
	}
	if w := contextWindow[a]; w > 0 && contextTokens*100 > w*CompactAtPercent {
		return fmt.Sprintf("the context would be %s tokens, over %d%% of %s's %s-token window",
			thousands(contextTokens), CompactAtPercent, a.Title(), thousands(w))
	}
	return ""
}

// thousands writes n with comma separators: 161,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// summaryTurn is how a compacted conversation starts.
func summaryTurn(summary string) agentcli.Turn {
	return agentcli.Turn{Role: "user", Text: "Summary of our conversation so far (the earlier turns were compacted into it):\n\n" + summary}
}

// chatTurns is the conversation a chat's next run is sent: the latest
// summary, if the chat was compacted, then the turns after it.
func chatTurns(d ChatDetail) []agentcli.Turn {
	var turns []agentcli.Turn
	var upto int64
	if n := len(d.Compactions); n > 0 {
		turns = append(turns, summaryTurn(d.Compactions[n-1].Summary))
		upto = d.Compactions[n-1].UptoMessageID
	}
	for _, m := range d.Messages {
		if m.ID > upto && (m.Role == "user" || m.Role == "assistant") {
			turns = append(turns, agentcli.Turn{Role: m.Role, Text: m.Text})
		}
	}
	return turns
}

// compactions reads a chat's compactions (oldest first), the id of a
// compaction in progress, and whether its last message is the "too long"
// failure that the Compact button answers.
func (s *Service) compactions(ctx context.Context, d *ChatDetail) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, upto_id, summary, model, reason, turns, created_at
		FROM pipeline_compactions WHERE chat_id = ? ORDER BY id`, d.Chat.ID)
	if err != nil {
		return fmt.Errorf("reading the chat's compactions: %w", err)
	}
	defer rows.Close()
	d.Compactions = []Compaction{}
	for rows.Next() {
		var c Compaction
		var at int64
		if err := rows.Scan(&c.ID, &c.UptoMessageID, &c.Summary, &c.Model, &c.Reason, &c.Turns, &at); err != nil {
			return fmt.Errorf("reading the chat's compactions: %w", err)
		}
		c.CreatedAt = at
		d.Compactions = append(d.Compactions, c)
	}
	if run := s.activeFor(d.Chat.ID); strings.HasPrefix(run, compactPrefix) {
		d.Compacting = run
		// The chat was read a moment before: a compaction that started
		// since makes it Running in this same answer, not Idle beside it.
		if d.Chat.State != runs.StatePaused {
			d.Chat.State = runs.StateRunning
		}
	}
	if n := len(d.Messages); n > 0 {
		// A failure the chat has been compacted since is answered.
		last := d.Messages[n-1]
		d.TooLong = last.Role == "error" && strings.Contains(last.Text, agentcli.ErrPromptTooLong.Error()) &&
			(len(d.Compactions) == 0 || d.Compactions[len(d.Compactions)-1].UptoMessageID < last.ID)
	}
	return rows.Err()
}

// compactChunk bounds the conversation sent in one Compaction run, so its
// prompt (with the summary so far) stays under the command-line limit; a
// longer conversation is summarised piece by piece, each piece with the
// summary of the ones before it.
const compactChunk = 90 << 10

// compact has the Compaction role summarise a chat's turns after its last
// compaction up to message upto, and records the summary. The chat's CLI
// session is dropped: it holds the whole conversation, and the next run
// starts a new one from the summary.
func (s *Service) compact(ctx context.Context, c Chat, upto int64, reason string, ctl *agentcli.Control) (Compaction, error) {
	role, err := s.roles.RoleModel(ctx, "Compaction")
	if err != nil {
		return Compaction{}, err
	}
	var prev string
	var from int64
	err = s.db.QueryRowContext(ctx, `SELECT summary, upto_id FROM pipeline_compactions WHERE chat_id = ? ORDER BY id DESC LIMIT 1`, c.ID).Scan(&prev, &from)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Compaction{}, fmt.Errorf("reading the chat's last compaction: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT role, text FROM pipeline_messages WHERE chat_id = ? AND id > ? AND id <= ?
		AND role IN ('user','assistant') ORDER BY id`, c.ID, from, upto)
	if err != nil {
		return Compaction{}, fmt.Errorf("reading the turns to compact: %w", err)
	}
	var turns []agentcli.Turn
	for rows.Next() {
		var t agentcli.Turn
		if err := rows.Scan(&t.Role, &t.Text); err != nil {
			rows.Close()
			return Compaction{}, fmt.Errorf("reading the turns to compact: %w", err)
		}
		turns = append(turns, t)
	}
	rows.Close()
	if len(turns) == 0 {
		return Compaction{}, ErrNothingToCompact
	}
	summary := prev
	folder := s.chatFolder(ctx, c)
	for _, part := range chunkTurns(turns, compactChunk) {
		got, err := s.textRole(ctx, role, folder, compactionPrompt(summary, part), compactionLimit, ctl)
		if err != nil {
			return Compaction{}, fmt.Errorf("running the Compaction role (%s): %w", role.Model, err)
		}
		if got == "" {
			return Compaction{}, fmt.Errorf("the Compaction role (%s) answered nothing: try again, or pick another model for it in Pipeline → Pipeline Roles", role.Model)
		}
		summary = got
	}
	cp := Compaction{UptoMessageID: upto, Summary: summary, Model: role.Model, Reason: reason, Turns: len(turns), CreatedAt: s.now().UnixMilli()}
	res, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_compactions(chat_id, upto_id, summary, model, reason, turns, created_at)
		VALUES(?,?,?,?,?,?,?)`, c.ID, upto, summary, role.Model, reason, len(turns), cp.CreatedAt)
	if err == nil {
		cp.ID, _ = res.LastInsertId()
		_, err = s.db.ExecContext(ctx, `UPDATE pipeline_chats SET cli_agent = '', cli_session = '' WHERE id = ?`, c.ID)
	}
	if err != nil {
		return Compaction{}, fmt.Errorf("saving the summary: %w", err)
	}
	s.changed(c.ID)
	return cp, nil
}

// compactionPrompt asks for the summary of one part of a conversation,
// given the summary of the parts before it.
func compactionPrompt(before, part string) string {
	if before == "" {
		return "The conversation to summarise:\n\n<conversation>\n" + part + "\n</conversation>"
	}
	return "The summary of the conversation before this part:\n\n<summary>\n" + before +
		"\n</summary>\n\nThe conversation after it, to summarise together with that summary:\n\n<conversation>\n" + part + "\n</conversation>"
}

// chunkTurns renders turns as a transcript cut into parts of at most max
// bytes: between turns or paragraphs where one falls in the second half of
// a part, else between lines, else at a character.
func chunkTurns(turns []agentcli.Turn, max int) []string {
	rest := agentcli.Transcript(turns)
	var parts []string
	for len(rest) > max {
		cut := strings.LastIndex(rest[:max], "\n\n")
		if cut < max/2 {
			cut = strings.LastIndex(rest[:max], "\n")
		}
		if cut < max/2 {
			for cut = max; cut > 0 && !utf8.RuneStart(rest[cut]); cut-- {
			}
		}
		parts = append(parts, rest[:cut])
		rest = strings.TrimLeft(rest[cut:], "\n")
	}
	return append(parts, rest)
}
