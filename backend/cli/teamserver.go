package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/osfoundry/desktop/backend/teamserver/teamconfig"
)

// TeamServerFunc runs the team server until ctx ends and returns the exit
// code.
type TeamServerFunc func(ctx context.Context, cfg teamconfig.Config, stdout, stderr io.Writer) int

// teamServer is linked in by the command line (cmd/osfoundry); the window
// app leaves it nil so it never carries the PostgreSQL driver or the
// metrics library.
var teamServer TeamServerFunc

// SetTeamServer links the team server into this binary.
func SetTeamServer(f TeamServerFunc) { teamServer = f }

func init() {
	c := &Command{Name: "team-server",
		Usage: "--database-url URL --public-url https://host [--listen 127.0.0.1:8780] [--oidc-issuer URL --oidc-client-id ID]",
		Help:  "Run the team server: one shared workspace for a team, on PostgreSQL, behind your TLS proxy (any number of replicas).",
		Page: &Page{
			About: "`osfoundry serve` is the single-user endpoint on your own machine, kept in your own data folder. " +
				"`osfoundry team-server` is the shared one: the people of a team and their assistants reach it through your " +
				"TLS proxy, it keeps everything in PostgreSQL, and any number of replicas run side by side on one database." +
				"\n\nEvery setting is a flag or an environment variable (the flag wins); keep the database password and the " +
				"OpenID Connect client secret in the environment or a file, since any user of the machine can read flags. " +
				"It listens on 127.0.0.1:8780 for a proxy on the same machine; set --listen 0.0.0.0:8780 only when the proxy " +
				"runs on another host, and never expose it without TLS in front." +
				"\n\nOn start it migrates the database (once, whichever replica comes first) and refuses to start, with a " +
				"message and a non-zero exit, when PostgreSQL does not answer (exit 1) or its schema is newer than this " +
				"release (exit 3: upgrade this replica). /healthz answers while the process runs, /readyz while the database " +
				"answers (503 otherwise, and at once on SIGTERM), /metrics in Prometheus format. Logs are JSON lines on " +
				"standard output, one per request, never with a token or a secret. On SIGTERM it stops accepting, lets " +
				"requests in flight finish within --drain-timeout and exits 0." +
				"\n\nBack it up with PostgreSQL's own backups (pg_dump, or your managed service's).",
			Flags: func() *flag.FlagSet { return teamconfig.FlagSet("team-server") },
			Example: "osfoundry team-server --public-url https://osfoundry.example.com   # OSF_DATABASE_URL in the environment\n" +
				"osfoundry team-server --database-url postgres:///osfoundry?host=/var/run/postgresql --public-url https://osfoundry.example.com --listen 127.0.0.1:8781",
			Docs: "docs/team-server.md",
		}}
	c.Run = func(env *Env, args []string) int { return runTeamServer(env, c, args) }
	register(c)
}

func runTeamServer(env *Env, c *Command, args []string) int {
	fs := teamconfig.FlagSet(c.Name)
	fs.SetOutput(io.Discard)
	cfg, err := teamconfig.Load(fs, args, teamconfig.OS)
	if err != nil {
		return fail(env, c, "%v", err)
	}
	if teamServer == nil {
		fmt.Fprintln(env.Stderr, "osfoundry team-server: this program is the window app; run the team server with the osfoundry command line installed beside it")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal drains; a second one ends the process at once.
	go func() { <-ctx.Done(); stop() }()
	return teamServer(ctx, cfg, env.Stdout, env.Stderr)
}
