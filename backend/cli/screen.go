package cli

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/osfoundry/desktop/backend/terminal"
)

func init() {
	c := &Command{
		Name:  "screen",
		Usage: "[--cols 120] [--rows 32] [FILE...]",
		Help:  "Feed raw terminal bytes (stdin or files) through the app's emulator and print the visible screen.",
		Page: &Page{
			About: "Each FILE (or standard input when there is none, or for -) is fed through the same terminal " +
				"emulator a pane uses, in 32 KiB reads, and the screen it ends with is printed, one line a row. " +
				"With several files each screen is headed by its file name. Use it to see what detection sees in a capture.",
			Flags:   func() *flag.FlagSet { fs, _, _ := screenFlags(); return fs },
			Example: "osfoundry screen --cols 100 --rows 30 capture.raw",
			Docs:    "README.md",
		},
	}
	c.Run = func(env *Env, args []string) int {
		fs, cols, rows := screenFlags()
		if err := fs.Parse(args); err != nil {
			return fail(env, c, "%v", err)
		}
		files := fs.Args()
		if len(files) == 0 {
			files = []string{"-"}
		}
		for i, name := range files {
			emu := terminal.NewEmulator(*cols, *rows)
			if err := feed(env, emu, name); err != nil {
				return fail(env, c, "%v", err)
			}
			if len(files) > 1 {
				if i > 0 {
					fmt.Fprintln(env.Stdout)
				}
				fmt.Fprintf(env.Stdout, "==> %s <==\n", name)
			}
			for _, l := range emu.Lines() {
				fmt.Fprintln(env.Stdout, l)
			}
		}
		return 0
	}
	register(c)
}

// screenFlags is the flag set of screen (and the size flags of detect).
func screenFlags() (fs *flag.FlagSet, cols, rows *int) {
	fs = flag.NewFlagSet("screen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cols = fs.Int("cols", 120, "screen width in columns")
	rows = fs.Int("rows", 32, "screen height in rows")
	return fs, cols, rows
}

// feed streams a file (or stdin for "-") into the emulator in chunks.
func feed(env *Env, emu *terminal.Emulator, name string) error {
	var r io.Reader = env.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("reading capture: %w", err)
		}
		defer f.Close()
		r = f
	}
	buf := make([]byte, 32<<10)
	var ui []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			ui = emu.WriteUI(buf[:n], ui[:0])
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", name, err)
		}
	}
}
