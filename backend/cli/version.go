package cli

import (
	"fmt"
	"runtime"
)

// Version is set at build time with -ldflags "-X .../backend/cli.Version=…".
var Version = "0.1.0-dev"

func init() {
	register(&Command{
		Name:  "version",
		Usage: "",
		Help:  "Print the app version.",
		Run: func(env *Env, args []string) int {
			fmt.Fprintf(env.Stdout, "osfoundry %s (%s/%s, %s)\n", Version, runtime.GOOS, runtime.GOARCH, runtime.Version())
			return 0
		},
	})
}
