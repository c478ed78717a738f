package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/tools"
)

// notesSubs are the owner commands on Notes, workspaces and projects.
var notesSubs = map[string]notesSub{
	"workspaces":       {usage: "", about: "Every workspace: id and name.", run: notesWorkspaces},
	"workspace-create": {usage: "NAME", about: "Create a workspace; prints its id.", run: notesWorkspaceCreate},
	"projects":         {usage: "WORKSPACE", about: "The workspace's projects: id and name.", run: notesProjects},
	"project-create":   {usage: "WORKSPACE NAME", about: "Create a project (with its discussion channel); prints its id.", run: notesProjectCreate},
	"list":             {usage: "[-workspace W] [-project P]", flags: []string{"workspace", "project"}, about: "Notes with their version and when they changed.", run: notesList},
	"create":           {usage: "-workspace W [-project P] [-text T] TITLE", flags: []string{"workspace", "project", "text"}, about: "Create a Note; prints its id.", run: notesCreate},
	"show":             {usage: "NOTE", about: "A Note's text and version.", run: notesShow},
	"move":             {usage: "NOTE PROJECT   (PROJECT - takes it out of every project)", about: "Move a Note to another project of its workspace.", run: notesMove},
	"search":           {usage: "[-workspace W] QUERY", flags: []string{"workspace"}, about: "Full-text search over Notes.", run: notesSearch},
	"tool":             {usage: "-workspace W TOOL ARGS_JSON   (one Notes tool call, exactly as an agent makes it)", flags: []string{"workspace"}, about: "Call one Notes tool with JSON arguments, as an agent would, and print its result.", run: notesTool},
}

func init() {
	registerNotesCommand("notes", "workspaces|workspace-create|projects|project-create|list|create|show|move|search …",
		"Manage Notes, workspaces and projects as their owner (a move takes effect on a Connected agent's next call).",
		notesUsage(), notesSubs, &Page{
			About: "Notes live in workspaces and their projects, in the app's database. An agent's writes are conditional " +
				"(expected_version) and idempotent; the commands here write as the owner. Workspace and project ids come " +
				"from workspaces and projects.",
			Example: "osfoundry notes create -workspace WS -text \"first draft\" \"Release plan\"",
			Docs:    "README.md",
		})
}

func notesUsage() string {
	return "workspaces, workspace-create, projects, project-create, list, create, show, move, search, tool"
}

func notesArgs(args []string, n int, what string) error {
	if len(args) != n {
		return fmt.Errorf("want %s", what)
	}
	return nil
}

func notesWorkspaces(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	ws, err := s.ListWorkspaces(ctx)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, w := range ws {
		rows = append(rows, []string{w.ID, w.Name})
	}
	printTable(env, []string{"id", "name"}, rows)
	return nil
}

func notesWorkspaceCreate(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if err := notesArgs(args, 1, "one NAME"); err != nil {
		return err
	}
	w, err := s.CreateWorkspace(ctx, "", args[0])
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, w.ID)
	return nil
}

func notesProjects(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if err := notesArgs(args, 1, "one WORKSPACE id"); err != nil {
		return err
	}
	ps, err := s.ListProjects(ctx, args[0])
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, p := range ps {
		rows = append(rows, []string{p.ID, p.Name})
	}
	printTable(env, []string{"id", "name"}, rows)
	return nil
}

func notesProjectCreate(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if err := notesArgs(args, 2, "WORKSPACE and NAME"); err != nil {
		return err
	}
	p, err := s.CreateProject(ctx, args[0], "", args[1])
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, p.ID)
	return nil
}

// flags parses -workspace/-project/-text style flags before positionals.
func notesFlags(args []string, names ...string) (map[string]*string, []string, error) {
	fs, vals := ownerFlagSet(names...)
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	return vals, fs.Args(), nil
}

func notesList(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	f, rest, err := notesFlags(args, "workspace", "project")
	if err != nil || len(rest) != 0 {
		return fmt.Errorf("unexpected arguments %v", rest)
	}
	var ws []notes.Workspace
	if *f["workspace"] != "" {
		ws = []notes.Workspace{{ID: *f["workspace"]}}
	} else if ws, err = s.ListWorkspaces(ctx); err != nil {
		return err
	}
	rows := [][]string{}
	for _, w := range ws {
		ns, err := s.ListNotes(ctx, w.ID, *f["project"])
		if err != nil {
			return err
		}
		for _, n := range ns {
			rows = append(rows, []string{n.ID, n.Workspace, n.Project, fmt.Sprint(n.Version), n.UpdatedAt.Format("2006-01-02 15:04"), n.Title})
		}
	}
	printTable(env, []string{"id", "workspace", "project", "version", "updated", "title"}, rows)
	return nil
}

func notesCreate(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	f, rest, err := notesFlags(args, "workspace", "project", "text")
	if err != nil {
		return err
	}
	if *f["workspace"] == "" || len(rest) != 1 {
		return fmt.Errorf("want -workspace and one TITLE")
	}
	n, err := s.CreateNote(ctx, notes.NewNote{Workspace: *f["workspace"], Project: *f["project"], Title: rest[0], Text: *f["text"]})
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, n.ID)
	return nil
}

func notesShow(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if err := notesArgs(args, 1, "one NOTE id"); err != nil {
		return err
	}
	n, err := s.GetNote(ctx, args[0])
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(n, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(jsonSafe(b)))
	return nil
}

func notesMove(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if err := notesArgs(args, 2, "NOTE and PROJECT"); err != nil {
		return err
	}
	project := args[1]
	if project == "-" {
		project = ""
	}
	if err := s.MoveNote(ctx, args[0], project); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "moved %s to %s\n", args[0], args[1])
	return nil
}

func notesSearch(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	f, rest, err := notesFlags(args, "workspace")
	if err != nil || len(rest) == 0 {
		return fmt.Errorf("want a QUERY")
	}
	hits, err := s.MemorySearch(ctx, *f["workspace"], strings.Join(rest, " "), 20)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, h := range hits {
		rows = append(rows, []string{h.Kind, h.ID, h.Title, strings.ReplaceAll(h.Snippet, "\n", " ")})
	}
	printTable(env, []string{"kind", "id", "title", "snippet"}, rows)
	return nil
}

// notesTool runs one Notes tool call with the same handler, checks and
// idempotency as the bridge and the Connected endpoint: a script (or the
// browser e2e) acts as an agent writing from another process.
func notesTool(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	f, rest, err := notesFlags(args, "workspace")
	if err != nil {
		return err
	}
	if *f["workspace"] == "" || len(rest) != 2 {
		return fmt.Errorf("want -workspace, a TOOL name and its ARGS as one JSON object")
	}
	tl, ok := s.Tool(rest[0])
	if !ok {
		names := []string{}
		for _, t := range s.Tools() {
			names = append(names, t.Meta.Name)
		}
		return fmt.Errorf("unknown tool %q; known: %s", rest[0], strings.Join(names, ", "))
	}
	if !json.Valid([]byte(rest[1])) {
		return fmt.Errorf("ARGS must be one JSON object, e.g. '{\"note_id\":\"…\"}'")
	}
	r, err := tl.Handler(ctx, tools.Call{Workspace: *f["workspace"], Tool: rest[0], Args: json.RawMessage(rest[1]), Source: "cli"})
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, r.Text)
	if r.IsError {
		return fmt.Errorf("the tool refused the call (see its result above)")
	}
	return nil
}
