package terminal

import (
	"strings"

	"github.com/osfoundry/desktop/backend/shellenv"
)

// lookPath finds name in the PATH of env (not the app's own PATH: a pane
// may run with a different environment).
var lookPath = shellenv.LookPathIn

// maxCommandLine bounds a command line shown in the rail.
const maxCommandLine = 200

// commandLine joins a program and its arguments for display, quoting the
// arguments that hold spaces or quotes.
func commandLine(name string, args []string) string {
	var b strings.Builder
	b.WriteString(name)
	for _, a := range args {
		b.WriteByte(' ')
		if a == "" || strings.ContainsAny(a, " \t\n'\"") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		b.WriteString(a)
		if b.Len() > maxCommandLine {
			break
		}
	}
	s := b.String()
	if len(s) > maxCommandLine {
		s = strings.ToValidUTF8(s[:maxCommandLine], "") + "…"
	}
	return s
}
