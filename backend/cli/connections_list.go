package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
)

// listConnections prints `connections list`: one row per connection, then
// each connection's linked chats below it, grouped by project, and what
// happens to work assigned to them.
func listConnections(env *Env, cs []connect.Connection) {
	rows := [][]string{}
	for _, x := range cs {
		rows = append(rows, []string{x.ID, x.DisplayName, x.Assistant, x.StatusText, x.Workspace, strings.Join(x.Projects, ","), strings.Join(x.Scopes, " ")})
	}
	printTable(env, []string{"ID", "NAME", "ASSISTANT", "STATUS", "WORKSPACE", "PROJECTS", "SCOPES"}, rows)
	linked := false
	for _, x := range cs {
		if len(x.ChatLinks) == 0 {
			continue
		}
		if !linked {
			fmt.Fprintln(env.Stdout, "\nLinked chats")
			linked = true
		}
		fmt.Fprintf(env.Stdout, "%s (%s)\n", safe(x.DisplayName), safe(x.ID))
		for _, p := range x.Projects {
			first := true
			for _, l := range x.ChatLinks {
				if l.Project != p {
					continue
				}
				if first {
					fmt.Fprintf(env.Stdout, "  project %s\n", safe(p))
					first = false
				}
				// The label is what the chat declared about itself: a
				// routing hint, quoted so nobody reads it as a verified name.
				fmt.Fprintf(env.Stdout, "    chat \"%s\"  linked %s\n", safe(l.Label), l.LinkedAt.Local().Format(time.DateTime))
			}
		}
	}
	if linked {
		fmt.Fprintln(env.Stdout, connect.TextChatWaits)
	}
}
