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
		Page: &Page{
			About:   "One line: osfoundry, the version this build was made from (a release tag, or the tag with the commits since it), and the system, architecture and Go it runs on.",
			Example: "osfoundry version",
			Docs:    "README.md",
		},
		Run: func(env *Env, args []string) int {
			fmt.Fprintf(env.Stdout, "osfoundry %s (%s/%s, %s)\n", Version, runtime.GOOS, runtime.GOARCH, runtime.Version())
			return 0
		},
	})
}
