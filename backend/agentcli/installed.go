package agentcli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/shellenv"
)

// LogInstalls writes two lines to the app's log (stderr; the log file when
// the window started without a terminal) once the login shell's
// environment has arrived: how PATH was found, and where each agent CLI
// is. A packaging check greps for "osfoundry: agent CLIs:".
func LogInstalls(w io.Writer) {
	<-shellenv.Began() // a log line is no reason to read the login shell sooner
	fmt.Fprintln(w, "osfoundry:", shellenv.Wait().Summary())
	var parts []string
	env := SystemEnv()
	for _, a := range []Agent{Claude, Codex} {
		in := Discover(a, env)
		if !in.Installed {
			parts = append(parts, string(a)+" not found")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", a, installedVersion(in.Path), in.Path))
	}
	fmt.Fprintln(w, "osfoundry: agent CLIs:", strings.Join(parts, ", "))
}

var versionRe = lazy.Regexp(`^\d+\.\d+\.\d+([-+.][0-9A-Za-z.-]+)?$`)

// installedVersion reads a CLI's version without running it (a start-up
// log line must not start node): the package.json of an npm install the
// binary links into, or a native install's versions/<version> file name.
// "found" when neither says.
func installedVersion(bin string) string {
	p, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return "found"
	}
	if versionRe().MatchString(filepath.Base(p)) {
		return filepath.Base(p)
	}
	dir := filepath.Dir(p)
	for range 4 {
		if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
			var pkg struct{ Version string }
			if json.Unmarshal(b, &pkg) == nil && versionRe().MatchString(pkg.Version) {
				return pkg.Version
			}
		}
		dir = filepath.Dir(dir)
	}
	return "found"
}
