package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Page is a command's help page. `osfoundry CMD --help`, `osfoundry help
// CMD` and the man page osfoundry-CMD(1) (build/mangen) are all written
// from it, and its flags come from the command's own flag set, so the page
// cannot list a flag the command does not take.
type Page struct {
	About   string               // what the command does: paragraphs separated by a blank line
	Flags   func() *flag.FlagSet // the command's flag set; nil when it takes none
	Subs    []Sub                // its subcommands, in the order a person reads them
	Example string               // one or more command lines, one a line
	Docs    string               // the document that says more, as a path in the source tree (README.md, docs/orchestration.md)
}

// Sub is one subcommand of a command (rules update, connections tools, …).
type Sub struct {
	Name  string
	Usage string // its arguments and flags
	About string
	Flags func() *flag.FlagSet // nil when it takes none
}

// DocsDir is where the installed documents live: the .deb and .rpm put
// the source tree's README.md, docs/ and rules/README.md there. On
// Windows and macOS they are in the doc folder beside the program
// (docsDir).
const DocsDir = "/usr/share/doc/osfoundry"

// docsDir is the folder a page's Docs path is under on this system.
func docsDir() string {
	switch runtime.GOOS {
	case "windows", "darwin":
		// %LOCALAPPDATA%\Programs\osFoundry\doc, osFoundry.app/Contents/Resources/doc.
		return filepath.Join(executableDir(), "doc")
	}
	return DocsDir
}

// isHelpFlag reports whether a is one of the ways to ask for help.
func isHelpFlag(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// wantsHelp reports whether args ask for the command's page: a help flag
// anywhere before "--" (after it, the words belong to a task or adapter).
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isHelpFlag(a) {
			return true
		}
	}
	return false
}

// printHelp writes c's page, or only sub's part of it when args start with
// one of c's subcommands, to w.
func printHelp(w io.Writer, c *Command, args []string) {
	p := c.page()
	if len(args) > 0 {
		for _, s := range p.Subs {
			if s.Name == args[0] {
				fmt.Fprintf(w, "osfoundry %s %s — %s\n\nUsage:\n  %s\n", c.Name, s.Name, oneLine(s.About),
					strings.TrimSpace("osfoundry "+c.Name+" "+s.Name+" "+s.Usage))
				writeFlags(w, s.Flags, "  ")
				writeTail(w, c, p)
				return
			}
		}
	}
	fmt.Fprintf(w, "osfoundry %s — %s\n\nUsage:\n  %s\n", c.Name, c.Help, strings.TrimSpace("osfoundry "+c.Name+" "+c.Usage))
	if p.About != "" {
		fmt.Fprintf(w, "\n%s\n", wrap(p.About, "  "))
	}
	if len(p.Subs) > 0 {
		fmt.Fprintln(w, "\nSubcommands:")
		for _, s := range p.Subs {
			fmt.Fprintf(w, "  %s\n%s\n", strings.TrimSpace(s.Name+" "+s.Usage), wrap(s.About, "      "))
			writeFlagList(w, s.Flags, "      ")
		}
	}
	writeFlags(w, p.Flags, "  ")
	writeTail(w, c, p)
}

func writeFlags(w io.Writer, flags func() *flag.FlagSet, indent string) {
	if flags == nil {
		return
	}
	fmt.Fprintln(w, "\nFlags:")
	writeFlagList(w, flags, indent)
}

func writeFlagList(w io.Writer, flags func() *flag.FlagSet, indent string) {
	for _, f := range flagList(flags) {
		fmt.Fprintf(w, "%s%s\n%s\n", indent, f.Spec, wrap(f.Usage, indent+"    "))
	}
}

func writeTail(w io.Writer, c *Command, p Page) {
	fmt.Fprintln(w, "\nExample:")
	for _, l := range strings.Split(strings.TrimSpace(p.Example), "\n") {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintf(w, "\nDocs: %s (%s in the source)\n", filepath.Join(docsDir(), filepath.FromSlash(p.Docs)), p.Docs)
	fmt.Fprintln(w, "All commands: osfoundry help")
}

// flagDoc is one flag as a page shows it.
type flagDoc struct {
	Name  string
	Spec  string // --name VALUE
	Usage string // what it does, with its default
}

// flagList reads the flags of the set flags builds, in name order.
func flagList(flags func() *flag.FlagSet) []flagDoc {
	if flags == nil {
		return nil
	}
	var out []flagDoc
	flags().VisitAll(func(f *flag.Flag) {
		// The value's name from its type: a backquoted phrase in the usage
		// is a command to run, not the value's name.
		value, _ := flag.UnquoteUsage(&flag.Flag{Value: f.Value, Usage: strings.ReplaceAll(f.Usage, "`", "")})
		value = valueNames[value]
		usage := f.Usage
		spec := "--" + f.Name
		if len(f.Name) == 1 {
			spec = "-" + f.Name
		}
		if value != "" {
			spec += " " + value
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "0s" {
			usage += " (default " + d + ")"
		}
		out = append(out, flagDoc{Name: f.Name, Spec: spec, Usage: usage})
	})
	return out
}

var valueNames = map[string]string{"string": "VALUE", "int": "N", "float": "N", "duration": "DURATION", "value": "VALUE"}

// page is c's page; a command without one still gets its usage line.
func (c *Command) page() Page {
	if c.Page != nil {
		return *c.Page
	}
	return Page{Docs: "README.md"}
}

// oneLine is the first sentence-ending line of s.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

// wrap refills paragraphs (separated by a blank line) to about 80
// columns, each line after indent.
func wrap(s, indent string) string {
	var b strings.Builder
	for i, para := range strings.Split(strings.TrimSpace(s), "\n\n") {
		if i > 0 {
			b.WriteString("\n\n")
		}
		col := 0
		for j, word := range strings.Fields(para) {
			switch {
			case j == 0:
				b.WriteString(indent)
				col = len(indent)
			case col+1+len(word) > 80:
				b.WriteString("\n" + indent)
				col = len(indent)
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(word)
			col += len(word)
		}
	}
	return b.String()
}

// executableDir is the folder of the running program, links resolved.
func executableDir() string {
	exe, err := os.Executable()
	if err != nil {
		return "."
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Dir(exe)
}
