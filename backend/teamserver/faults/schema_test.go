package faults

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/teamserver"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// A newer release migrated the database while a replica of this release
// served: a replica of this release that starts now refuses, with exit 3
// (systemd's RestartPreventExitStatus, as restarting cannot fix it) and a
// sentence naming the versions and saying to upgrade, and the one that
// was already serving is untouched.
func TestAReplicaRefusesASchemaNewerThanItself(t *testing.T) {
	url := pgtest.Database(t)
	serving := teamtest.Start(t, teamtest.Env(url))
	execSQL(t, url, `INSERT INTO schema_server (version_id, is_applied) VALUES (424242, true)`)

	late := teamtest.Launch(t, teamtest.Env(url))
	code, err := late.Wait(wait)
	if err != nil {
		t.Fatal(err)
	}
	if code != teamserver.ExitSchemaNewer {
		t.Errorf("exit %d, want %d", code, teamserver.ExitSchemaNewer)
	}
	for _, want := range []string{"newer than this server", "424242", "upgrade this server"} {
		if !strings.Contains(late.Stderr(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, late.Stderr())
		}
	}
	if _, err := late.WaitLog(wait, func(l teamtest.Line) bool { return l["msg"] == "serving" }); err == nil {
		t.Error("the refusing replica logged that it serves")
	}
	if code, body := get(t, serving.URL+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("the replica that was serving: /healthz %d %q", code, body)
	}
}

func execSQL(t *testing.T, url, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
