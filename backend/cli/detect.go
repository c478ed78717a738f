package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/detect/replay"
	"github.com/osfoundry/desktop/rules"
)

func init() {
	c := &Command{
		Name:  "detect",
		Usage: "[--agent NAME|auto] [--cols 120] [--rows 32] FILE...",
		Help:  "Replay raw terminal captures through the emulator and print each one's state and the rule or signal that decided it.",
		Page: &Page{
			About: "Each FILE is a raw capture of a pane's terminal bytes. It is replayed through the pane's emulator and the " +
				"detection rules (the built-in rules/*.toml, with yours from ~/.osfoundry/agent-detection), and a table shows " +
				"each capture's agent, its state (working, idle or blocked) and the rule or signal that decided it.\n\n" +
				"A file named like NAME.blocked.raw states the expected state: the EXPECTED column says ok or MISMATCH, and a " +
				"count of correct captures follows. Exit 1 when a file cannot be read.",
			Flags:   func() *flag.FlagSet { fs, _, _, _ := detectFlags(); return fs },
			Example: "osfoundry detect --agent claude capture.blocked.raw",
			Docs:    "rules/README.md",
		},
	}
	c.Run = func(env *Env, args []string) int {
		fs, agent, cols, rows := detectFlags()
		if err := fs.Parse(args); err != nil {
			return fail(env, c, "%v", err)
		}
		if fs.NArg() == 0 {
			return fail(env, c, "name at least one capture file")
		}
		home, _ := os.UserHomeDir()
		reg, problems, err := detect.Load(rules.Files, home)
		if err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry detect: %v\n", err)
			return 1
		}
		for _, p := range problems {
			fmt.Fprintf(env.Stderr, "warning: %v\n", p)
		}
		var table [][]string
		checked, correct, failed := 0, 0, 0
		for _, name := range fs.Args() {
			res, err := replay.File(reg, name, replay.Options{Agent: *agent, Cols: *cols, Rows: *rows})
			if err != nil {
				fmt.Fprintf(env.Stderr, "osfoundry detect: %s: %v\n", name, err)
				failed++
				continue
			}
			verdict := ""
			if res.Expected != "" {
				checked++
				if res.OK() {
					correct++
					verdict = "ok"
				} else {
					verdict = "MISMATCH (want " + string(res.Expected) + ")"
				}
			}
			agentName := res.Agent
			if agentName == "" {
				agentName = "-"
			}
			table = append(table, []string{filepath.Base(name), agentName, string(res.Decision.State), res.Decision.String(), verdict})
		}
		printTable(env, []string{"FILE", "AGENT", "STATE", "DECIDED BY", "EXPECTED"}, table)
		if checked > 0 {
			fmt.Fprintf(env.Stdout, "\ncorrect: %d/%d captures whose name states the expected state\n", correct, checked)
		}
		if failed > 0 {
			return 1
		}
		return 0
	}
	register(c)
}

func detectFlags() (fs *flag.FlagSet, agent *string, cols, rows *int) {
	fs, cols, rows = screenFlags()
	agent = fs.String("agent", "auto", "agent rules to use (claude, codex, …), or auto: screen markers, OSC reports, the file name")
	return fs, agent, cols, rows
}
