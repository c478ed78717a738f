package teamserver_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The window app shares the command dispatcher (backend/cli) but must not
// carry the team server's PostgreSQL driver, migrations or metrics: the
// server links only into the command line, through cli.SetTeamServer.
func TestTheWindowAppLinksNoServerLibraries(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, tags := range []string{"production,webkit2_41", "production"} {
		out, err := exec.Command(goTool, "list", "-e", "-deps", "-tags", tags, "github.com/osfoundry/desktop").CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 50 {
			t.Fatalf("go list -tags %s found only %d packages:\n%s", tags, len(deps), out)
		}
		for _, p := range deps {
			for _, bad := range []string{"github.com/jackc/pgx", "github.com/prometheus/", "github.com/pressly/goose", "/backend/pgdb", "/backend/teamserver"} {
				if strings.Contains(p, bad) && !strings.HasSuffix(p, "/backend/teamserver/teamconfig") {
					t.Errorf("the window app (-tags %s) links %s", tags, p)
				}
			}
		}
	}
}
