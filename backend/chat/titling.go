package chat

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/roles"
)

// A chat's title from the Titling role is at most this long.
const (
	maxTitleWords = 6
	maxTitleRunes = 60
	// titlingInput bounds the task and the answer sent to the Titling
	// role: the gist is in their beginnings.
	titlingInput = 2000
)

// CleanTitle turns a model's answer into a chat title: its first non-empty
// line without a "Title:" label, Markdown marks, quotes, control or
// invisible characters and closing punctuation, at most six words and 60
// characters (cut at a word, with "…"). "" when nothing is left.
func CleanTitle(s string) string {
	line := ""
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			line = l
			break
		}
	}
	line = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			return -1
		case strings.ContainsRune("\"“”„«»*`#", r):
			return -1
		}
		return r
	}, line)
	if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "title") {
		line = v
	}
	words := strings.Fields(line)
	if len(words) > maxTitleWords {
		words = words[:maxTitleWords]
	}
	line = strings.Join(words, " ")
	line = strings.Trim(line, "'‘’_ ")
	line = strings.TrimRight(line, ".,;:!?…-– ")
	if utf8.RuneCountInString(line) <= maxTitleRunes {
		return line
	}
	cut := []rune(line)[:maxTitleRunes-1]
	if i := strings.LastIndex(string(cut), " "); i > 0 {
		return strings.TrimRight(string(cut)[:i], ".,;:!?-– ") + "…"
	}
	return string(cut) + "…"
}

// titleLater has the Titling role name a chat after its first answer, in
// the background: the chat's run has already finished, and nothing waits
// for the title. A title that cannot be made leaves the first-line title
// and is logged. Called by finish for a chat run that ended done (while
// that run still holds the WaitGroup, so Close waits for this too).
func (s *Service) titleLater(chatID string) {
	s.wg.Add(1)
	s.titling.Add(1)
	go func() {
		defer s.wg.Done()
		defer s.titling.Done()
		// An app quitting mid-way is no failure to report.
		if err := s.titleChat(s.runCtx, chatID); err != nil && s.runCtx.Err() == nil {
			s.logf("osfoundry: titling chat %s: %v; it keeps its title", chatID, err)
		}
	}()
}

// titleChat names a chat that has just had its first answer with the
// Titling role's model: the assigned one, else the default that Pipeline
// Roles shows for it (a person who sees a Titling model expects titles).
// It does nothing when no CLI can play the role, for a chat that had
// answers before, or one that continues a conversation made elsewhere.
func (s *Service) titleChat(ctx context.Context, chatID string) error {
	role, err := s.roles.RoleModel(ctx, "Titling")
	if errors.Is(err, roles.ErrNoModel) {
		return nil
	}
	if err != nil {
		return err
	}
	model := role.Model
	var answers int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pipeline_messages WHERE chat_id = ? AND role = 'assistant'`, chatID).Scan(&answers); err != nil {
		return fmt.Errorf("reading the chat: %w", err)
	}
	if answers != 1 {
		return nil
	}
	var task, answer string
	if err := s.db.QueryRowContext(ctx, `SELECT text FROM pipeline_messages WHERE chat_id = ? AND role = 'user' ORDER BY id LIMIT 1`, chatID).Scan(&task); err != nil {
		return fmt.Errorf("reading the chat's first task: %w", err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT text FROM pipeline_messages WHERE chat_id = ? AND role = 'assistant' AND run_id != ''`, chatID).Scan(&answer); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil // the answer is the earlier conversation of a continued session
		}
		return fmt.Errorf("reading the chat's first answer: %w", err)
	}
	c, err := s.getChat(ctx, chatID)
	if err != nil {
		return err
	}
	prompt := "The conversation to title:\n\n" + agentcli.Transcript([]agentcli.Turn{
		{Role: "user", Text: clipRunes(task, titlingInput)}, {Role: "assistant", Text: clipRunes(answer, titlingInput)}})
	got, err := s.textRole(ctx, role, s.chatFolder(ctx, c), prompt, titlingLimit, nil)
	if err != nil {
		return fmt.Errorf("running the Titling role (%s): %w", model, err)
	}
	title := CleanTitle(got)
	if title == "" {
		return fmt.Errorf("the Titling role (%s) gave no usable title (it answered %q)", model, clipRunes(got, 80))
	}
	// Only the title the chat was created with is replaced.
	res, err := s.db.ExecContext(ctx, `UPDATE pipeline_chats SET title = ? WHERE id = ? AND title = ?`, title, chatID, c.Title)
	if err != nil {
		return fmt.Errorf("saving the title: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		s.changed(chatID)
	}
	return nil
}

// clipRunes shortens s to at most n runes, marking the cut with "…".
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
