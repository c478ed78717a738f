package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/tools"
)

// notesSubs are the owner commands on Notes, workspaces and projects.
var notesSubs = map[string]notesSub{
	"workspaces":       {"", notesWorkspaces},
	"workspace-create": {"NAME", notesWorkspaceCreate},
	"projects":         {"WORKSPACE", notesProjects},
	"project-create":   {"WORKSPACE NAME", notesProjectCreate},
	"list":             {"[-workspace W] [-project P]", notesList},
	"create":           {"-workspace W [-project P] [-text T] TITLE", notesCreate},
	"show":             {"NOTE", notesShow},
	"move":             {"NOTE PROJECT   (PROJECT - takes it out of every project)", notesMove},
	"search":           {"[-workspace W] QUERY", notesSearch},
	"tool":             {"-workspace W TOOL ARGS_JSON   (one Notes tool call, exactly as an agent makes it)", notesTool},
}

func init() {
	registerNotesCommand("notes", "workspaces|workspace-create|projects|project-create|list|create|show|move|search …",
		"Manage Notes, workspaces and projects as their owner (a move takes effect on a Connected agent's next call).",
		notesUsage(), notesSubs)
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
	fs := flag.NewFlagSet("notes", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	vals := map[string]*string{}
	for _, n := range names {
		vals[n] = fs.String(n, "", "")
	}
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
	fmt.Fprintln(env.Stdout, string(b))
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
