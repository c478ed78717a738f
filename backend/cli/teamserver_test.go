package cli

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/teamserver/teamconfig"
)

// The command parses its settings, then hands them to the linked server;
// the window app, which links none, says where the server is instead.
func TestTeamServerHandsItsSettingsToTheLinkedServer(t *testing.T) {
	t.Setenv(teamconfig.EnvDatabaseURL, "postgres://osf@db/osfoundry")
	t.Setenv(teamconfig.EnvOIDCClientSecret, "")
	defer SetTeamServer(teamServer)

	SetTeamServer(nil)
	_, errOut, code := helpRun("team-server", "--public-url", "https://team.example.com")
	if code != 2 || !strings.Contains(errOut, "this program is the window app") {
		t.Fatalf("without a linked server: exit %d, %q", code, errOut)
	}

	var got teamconfig.Config
	SetTeamServer(func(ctx context.Context, cfg teamconfig.Config, stdout, stderr io.Writer) int {
		got = cfg
		return 3
	})
	_, _, code = helpRun("team-server", "--public-url", "https://team.example.com", "--listen", "0.0.0.0:8780")
	if code != 3 || got.DatabaseURL != "postgres://osf@db/osfoundry" || got.Listen != "0.0.0.0:8780" || got.PublicURL != "https://team.example.com" {
		t.Fatalf("exit %d, config %+v", code, got)
	}

	got = teamconfig.Config{}
	_, errOut, code = helpRun("team-server", "--public-url", "ftp://x")
	if code != 2 || got.DatabaseURL != "" || !strings.Contains(errOut, "is not a URL") || !strings.Contains(errOut, "usage: osfoundry team-server") {
		t.Fatalf("a bad setting reached the server or was not explained: exit %d, %q", code, errOut)
	}
}
