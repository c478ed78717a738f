package notes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Done summaries as knowledge articles. Ending a session on the Sessions
// board writes a summary; it is kept as an article of the workspace's
// "Session summaries" knowledge base (created with the first summary), so
// the Knowledge bases screen, search_knowledge_base and `osfoundry
// knowledge` all find it, versioned like any article.

// SummariesBase is the name of each workspace's knowledge base of Done
// summaries.
const SummariesBase = "Session summaries"

// AuthorSessions is who wrote a summary article (the "updated by" line).
const AuthorSessions = "Sessions board"

// summariesImported is the marker file, in the summaries folder, that says
// its files were imported (they are imported once: an article the person
// deletes afterwards stays deleted).
const summariesImported = ".imported-to-knowledge"

// SummaryRef names a summary article.
type SummaryRef struct {
	Workspace string `json:"workspace"`
	KB        string `json:"kb"`
	Article   string `json:"article"`
}

// SaveSessionSummary writes a Done summary into workspace's "Session
// summaries" knowledge base, creating the base on first use. Workspace ""
// is the default workspace (or the first). articleID "" creates an
// article; an existing id is replaced (a new version of it).
func (s *Store) SaveSessionSummary(ctx context.Context, workspace, articleID, title, body string) (SummaryRef, error) {
	// One at a time, so two sessions ended at once do not create two bases.
	s.summaryMu.Lock()
	defer s.summaryMu.Unlock()
	kb, err := s.summariesBase(ctx, workspace)
	if err != nil {
		return SummaryRef{}, fmt.Errorf("saving the session summary to knowledge: %w", err)
	}
	if articleID != "" {
		if _, err := s.GetArticle(ctx, kb.ID, articleID); err != nil {
			articleID = "" // deleted since: write it anew
		}
	}
	a, err := s.PutArticleAs(ctx, kb.ID, articleID, summaryTitle(title), body, AuthorSessions)
	if err != nil {
		return SummaryRef{}, fmt.Errorf("saving the session summary to knowledge: %w", err)
	}
	return SummaryRef{Workspace: kb.Workspace, KB: kb.ID, Article: a.ID}, nil
}

// ImportSessionSummaries imports the summary files (*.md) of dir into the
// default workspace's "Session summaries", once: afterwards a marker file
// in dir says it was done. It returns how many it imported.
func (s *Store) ImportSessionSummaries(ctx context.Context, dir string) (int, error) {
	marker := filepath.Join(dir, summariesImported)
	if _, err := os.Stat(marker); err == nil {
		return 0, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return 0, fmt.Errorf("importing session summaries: %w", err)
	}
	// With no file yet the marker is written all the same: summaries
	// written from now on are articles already and must not be imported.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, fmt.Errorf("importing session summaries: %w", err)
	}
	sort.Strings(files) // their names start with the date: oldest first
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || len(data) > MaxTextBytes {
			continue // unreadable or too big for an article: it stays a file
		}
		body := string(data)
		if _, err := s.SaveSessionSummary(ctx, "", "", firstHeading(body, filepath.Base(f)), body); err != nil {
			return n, fmt.Errorf("importing session summary %s: %w", filepath.Base(f), err)
		}
		n++
	}
	if err := os.WriteFile(marker, []byte("The summaries in this folder are articles of the \"Session summaries\" knowledge base.\n"), 0o600); err != nil {
		return n, fmt.Errorf("importing session summaries: %w", err)
	}
	return n, nil
}

// summariesBase finds or creates the workspace's summaries base.
func (s *Store) summariesBase(ctx context.Context, workspace string) (KnowledgeBase, error) {
	ws, err := s.summaryWorkspace(ctx, workspace)
	if err != nil {
		return KnowledgeBase{}, err
	}
	kbs, err := s.ListKnowledgeBases(ctx, ws)
	if err != nil {
		return KnowledgeBase{}, err
	}
	for _, kb := range kbs {
		if kb.Name == SummariesBase {
			return kb, nil
		}
	}
	return s.CreateKnowledgeBase(ctx, ws, "", "", SummariesBase)
}

// summaryWorkspace is workspace, else the default one, else the first;
// with none at all it creates the default (as the Notes screen does).
func (s *Store) summaryWorkspace(ctx context.Context, workspace string) (string, error) {
	if workspace != "" {
		return workspace, nil
	}
	ws, err := s.ListWorkspaces(ctx)
	if err != nil {
		return "", err
	}
	for _, w := range ws {
		if w.ID == DefaultWorkspace {
			return w.ID, nil
		}
	}
	if len(ws) > 0 {
		return ws[0].ID, nil
	}
	w, err := s.CreateWorkspace(ctx, DefaultWorkspace, "Personal")
	if err != nil {
		return "", err
	}
	return w.ID, nil
}

// summaryTitle fits a session's title into an article title.
func summaryTitle(t string) string {
	t = strings.Join(strings.Fields(t), " ")
	if t == "" {
		t = "Session summary"
	}
	if r := []rune(t); len(r) > MaxTitleChars {
		t = string(r[:MaxTitleChars])
	}
	return t
}

// firstHeading is a summary file's "# title", else its file name.
func firstHeading(body, name string) string {
	for _, l := range strings.SplitN(body, "\n", 5) {
		if strings.HasPrefix(l, "# ") {
			return strings.TrimSpace(l[2:])
		}
	}
	return strings.TrimSuffix(name, ".md")
}
