package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/osfoundry/desktop/backend/notes"
)

// knowledgeSubs are the owner commands on knowledge bases and articles.
var knowledgeSubs = map[string]notesSub{
	"create": {usage: "WORKSPACE NAME [--project P]", flags: []string{"project"}, about: "Create a knowledge base; prints its id.", run: knowledgeCreate},
	"add": {usage: "KB --title T --file F|- [--article ID   (replaces that article)]", flags: []string{"title", "file", "article"},
		about: "Add an article from a markdown file (or standard input), or replace one.", run: knowledgeAdd},
	"list":   {usage: "[KB]   (no KB: every knowledge base; KB: its articles)", about: "Knowledge bases, or one's articles.", run: knowledgeList},
	"show":   {usage: "KB ARTICLE", about: "An article's text.", run: knowledgeShow},
	"search": {usage: "KB QUERY", about: "Search a knowledge base as agents do.", run: knowledgeSearch},
}

func init() {
	registerNotesCommand("knowledge", "create|add|list|show|search …",
		"Manage knowledge bases and their articles as their owner (agents read them with search_knowledge_base).",
		knowledgeUsage(), knowledgeSubs, &Page{
			About: "A knowledge base belongs to a workspace (or one of its projects) and holds markdown articles, kept as " +
				"files in the app's data folder and indexed for search. Flags may come before or after the other arguments.",
			Example: "osfoundry knowledge add KB --title \"On-call\" --file oncall.md",
			Docs:    "README.md",
		})
}

func knowledgeUsage() string { return "create, add, list, show, search" }

func knowledgeCreate(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	f, rest, err := interspersedFlags(args, "project")
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return fmt.Errorf("want WORKSPACE and NAME")
	}
	kb, err := s.CreateKnowledgeBase(ctx, rest[0], *f["project"], "", rest[1])
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, kb.ID)
	return nil
}

func knowledgeAdd(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	f, rest, err := interspersedFlags(args, "title", "file", "article")
	if err != nil {
		return err
	}
	if len(rest) != 1 || *f["title"] == "" || *f["file"] == "" {
		return fmt.Errorf("want KB, --title and --file (a path, or - for standard input)")
	}
	var body []byte
	// Read one byte past the limit so an oversized file is refused clearly
	// without loading all of it.
	if *f["file"] == "-" {
		body, err = io.ReadAll(io.LimitReader(env.Stdin, notes.MaxTextBytes+1))
	} else {
		var fh *os.File
		if fh, err = os.Open(*f["file"]); err == nil {
			body, err = io.ReadAll(io.LimitReader(fh, notes.MaxTextBytes+1))
			fh.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", *f["file"], err)
	}
	a, err := s.PutArticleAs(ctx, rest[0], *f["article"], *f["title"], string(body), notes.AuthorCommandLine)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, a.ID)
	return nil
}

func knowledgeList(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	switch len(args) {
	case 0:
		ws, err := s.ListWorkspaces(ctx)
		if err != nil {
			return err
		}
		rows := [][]string{}
		for _, w := range ws {
			kbs, err := s.ListKnowledgeBases(ctx, w.ID)
			if err != nil {
				return err
			}
			for _, kb := range kbs {
				rows = append(rows, []string{kb.ID, kb.Workspace, kb.Project, kb.Name})
			}
		}
		printTable(env, []string{"id", "workspace", "project", "name"}, rows)
		return nil
	case 1:
		as, err := s.ListArticles(ctx, args[0])
		if err != nil {
			return err
		}
		rows := [][]string{}
		for _, a := range as {
			rows = append(rows, []string{a.ID, fmt.Sprint(a.Version), a.UpdatedAt.Format("2006-01-02 15:04"), a.UpdatedBy, a.Title})
		}
		printTable(env, []string{"id", "version", "updated", "by", "title"}, rows)
		return nil
	}
	return fmt.Errorf("want no argument or one KB id")
}

func knowledgeShow(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("want KB and ARTICLE")
	}
	a, err := s.GetArticle(ctx, args[0], args[1])
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(jsonSafe(b)))
	return nil
}

func knowledgeSearch(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("want KB and QUERY")
	}
	hits, err := s.SearchArticles(ctx, args[0], args[1], 0)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, h := range hits {
		rows = append(rows, []string{h.ArticleID, h.UpdatedAt.Format("2006-01-02 15:04"), h.Title, h.Snippet})
	}
	printTable(env, []string{"id", "updated", "title", "snippet"}, rows)
	return nil
}
