package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/notes/notesbench"
)

func init() {
	registerBench(&bench{
		name: "notes",
		help: "Notes race experiments (lost lines, version scope, ms versions, creates under lost responses), guarded-write cost and search_knowledge_base over 10,000 articles",
		run:  benchNotes,
	})
}

func benchNotes(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench notes", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var o notesbench.SuiteOptions
	only := fs.String("only", "", "comma-separated experiments to run: "+strings.Join(notesbench.Experiments, ","))
	fs.IntVar(&o.Runs, "runs", 5, "race runs (seeds 1..N)")
	fs.IntVar(&o.Edits, "edits", 100, "edits per editor per race run")
	fs.IntVar(&o.FastEdits, "fast-edits", 2000, "edits per editor in the zero-think-time runs")
	fs.IntVar(&o.Calls, "calls", 2000, "edit_note_tab calls per write-cost repetition")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *only != "" {
		for _, name := range strings.Split(*only, ",") {
			if !slices.Contains(notesbench.Experiments, name) {
				fmt.Fprintf(env.Stderr, "osfoundry-bench notes: unknown experiment %q; choose from %s\n", name, strings.Join(notesbench.Experiments, ", "))
				return 2
			}
			o.Only = append(o.Only, name)
		}
	}
	dir, err := os.MkdirTemp("", "osfoundry-bench-notes-")
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry-bench notes: creating a scratch folder: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	o.Dir = dir
	o.OnTable = func(t notesbench.Table) {
		fmt.Fprintf(env.Stdout, "\n%s\n\n", t.Title)
		printTable(env, t.Header, t.Rows)
		if t.Note != "" {
			fmt.Fprintf(env.Stdout, "\n%s\n", t.Note)
		}
	}
	fmt.Fprintln(env.Stderr, "running the Notes experiments at the reference article's sizes (about a minute)…")
	if _, err := notesbench.Suite(context.Background(), o); err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry-bench notes: %v\n", err)
		return 1
	}
	return 0
}
