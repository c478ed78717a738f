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
	}
	c.Run = func(env *Env, args []string) int {
		fs := flag.NewFlagSet("detect", flag.ContinueOnError)
		fs.SetOutput(env.Stderr)
		agent := fs.String("agent", "auto", "agent rules to use, or auto (screen markers, OSC reports, file name)")
		cols := fs.Int("cols", 120, "screen width")
		rows := fs.Int("rows", 32, "screen height")
		if err := fs.Parse(args); err != nil {
			return 2
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
