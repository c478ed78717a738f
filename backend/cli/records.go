package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/notes"
)

// recordsSubs are the owner commands on Record channels and their items.
var recordsSubs = map[string]notesSub{
	"channel-create": {usage: "WORKSPACE NAME [--project P] [--statuses a,b,c]", flags: []string{"project", "statuses"},
		about: "Create a Record channel with its own statuses; prints its id.", run: recordsChannelCreate},
	"add":  {usage: "CHANNEL --title T [--status S] [--body B]", flags: []string{"title", "status", "body"}, about: "Add an item; prints its id.", run: recordsAdd},
	"list": {usage: "[CHANNEL]   (no CHANNEL: every Record channel; CHANNEL: its items)", about: "Record channels, or one's items.", run: recordsList},
	"show": {usage: "CHANNEL ITEM", about: "An item with its status and text.", run: recordsShow},
}

func init() {
	registerNotesCommand("records", "channel-create|add|list|show …",
		"Manage Record channels and their items as their owner (agents change them with edit_record_item).",
		recordsUsage(), recordsSubs, &Page{
			About: "A Record channel has its own statuses (e.g. Draft, Review, Ready), shown as a board or a table in the " +
				"window; an item's status must be one of them. Flags may come before or after the other arguments.",
			Example: "osfoundry records channel-create WS Releases --statuses Draft,Review,Ready",
			Docs:    "README.md",
		})
}

func recordsUsage() string { return "channel-create, add, list, show" }

// workspaceHint makes a missing workspace say where to find the ids.
func workspaceHint(err error) error {
	if errors.Is(err, notes.ErrNotFound) && strings.Contains(err.Error(), "workspace") {
		return fmt.Errorf("%w (see the ids with `osfoundry notes workspaces`)", err)
	}
	return err
}

func recordsChannelCreate(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	f, rest, err := interspersedFlags(args, "project", "statuses")
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return fmt.Errorf("want WORKSPACE and NAME")
	}
	statuses, err := notes.ParseStatuses(*f["statuses"])
	if err != nil {
		return err
	}
	c, err := s.CreateRecordBoard(ctx, rest[0], *f["project"], rest[1], statuses)
	if err != nil {
		return workspaceHint(err)
	}
	fmt.Fprintln(env.Stdout, c.ID)
	return nil
}

func recordsAdd(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	f, rest, err := interspersedFlags(args, "title", "status", "body")
	if err != nil {
		return err
	}
	if len(rest) != 1 || *f["title"] == "" {
		return fmt.Errorf("want one CHANNEL and --title")
	}
	it, err := s.AddRecord(ctx, rest[0], *f["title"], *f["status"], *f["body"])
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, it.ID)
	return nil
}

func recordsList(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if len(args) > 1 {
		return fmt.Errorf("want at most one CHANNEL")
	}
	if len(args) == 1 {
		if _, err := s.RecordBoardByID(ctx, args[0]); err != nil {
			return err
		}
		items, err := s.ListRecords(ctx, args[0])
		if err != nil {
			return err
		}
		rows := [][]string{}
		for _, it := range items {
			rows = append(rows, []string{it.ID, it.Status, fmt.Sprint(it.Version), it.UpdatedAt.Format("2006-01-02 15:04"), it.Title})
		}
		printTable(env, []string{"id", "status", "version", "updated", "title"}, rows)
		return nil
	}
	ws, err := s.ListWorkspaces(ctx)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, w := range ws {
		bs, err := s.RecordBoards(ctx, w.ID)
		if err != nil {
			return err
		}
		for _, b := range bs {
			st := strings.Join(b.Statuses, ",")
			if st == "" {
				st = "(any)"
			}
			rows = append(rows, []string{b.ID, b.Workspace, b.Project, st, b.Name})
		}
	}
	printTable(env, []string{"id", "workspace", "project", "statuses", "name"}, rows)
	return nil
}

func recordsShow(ctx context.Context, env *Env, s *notes.Store, args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("want CHANNEL and ITEM")
	}
	it, err := s.GetRecord(ctx, args[0], args[1])
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(it, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding record: %w", err)
	}
	fmt.Fprintln(env.Stdout, string(jsonSafe(b)))
	return nil
}
