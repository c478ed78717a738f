package teamserver_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(teamtest.Main(m)) }

// wait is how long a test waits for something the server does by itself.
const wait = 2 * time.Minute

// A started replica answers /healthz, /readyz and /metrics; every line it
// logs is JSON; a request is logged by its route, with neither the query,
// the Authorization header, the database password nor the client secret
// anywhere in its output.
func TestServesProbesMetricsAndJSONLogsWithoutSecrets(t *testing.T) {
	url := pgtest.Database(t)
	withPassword := strings.Replace(url, "osf@", "osf:pw-never-logged@", 1)
	env := append(teamtest.Env(withPassword),
		"OSF_OIDC_ISSUER=http://127.0.0.1:1", "OSF_OIDC_CLIENT_ID=osf-test", "OSF_OIDC_CLIENT_SECRET=oidc-never-logged")
	r := teamtest.Start(t, env)

	if code, body := get(t, r.URL+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, body := get(t, r.URL+"/readyz"); code != 200 || body != "ready\n" {
		t.Errorf("/readyz: %d %q", code, body)
	}
	req, _ := http.NewRequest("GET", r.URL+"/no/such/page?code=code-never-logged", nil)
	req.Header.Set("Authorization", "Bearer token-never-logged")
	req.Header.Set("X-Request-Id", "req-42")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 || resp.Header.Get("X-Request-Id") != "req-42" {
		t.Errorf("unknown page: %d, request ID %q", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
	line, err := r.WaitLog(wait, func(l teamtest.Line) bool { return l["msg"] == "request" && l["request_id"] == "req-42" })
	if err != nil {
		t.Fatal(err)
	}
	if line["route"] != "unmatched" || line["status"] != float64(404) || line["method"] != "GET" || line["level"] != "INFO" {
		t.Errorf("request line: %v", line)
	}

	_, metrics := get(t, r.URL+"/metrics")
	for _, want := range []string{
		`osfoundry_http_requests_total{code="200",method="GET",route="GET /healthz"} 1`,
		`osfoundry_http_requests_total{code="404",method="GET",route="unmatched"} 1`,
		`osfoundry_http_request_duration_seconds_count{method="GET",route="GET /readyz"} 1`,
		"osfoundry_db_pool_max_conns ",
		"osfoundry_db_pool_acquires_total ",
		"osfoundry_database_up 1",
		"osfoundry_team_draining 0",
		"process_cpu_seconds_total ",
		"go_goroutines ",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}

	if err := r.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code, err := r.Wait(wait); err != nil || code != 0 {
		t.Fatalf("after SIGINT: exit %d, %v", code, err)
	}
	logs, err := r.Logs()
	if err != nil {
		t.Fatal(err)
	}
	msgs := map[string]bool{}
	for _, l := range logs {
		msgs[l["msg"].(string)] = true
		if l["replica"] == "" || l["time"] == nil {
			t.Errorf("a line without its replica or time: %v", l)
		}
	}
	for _, m := range []string{"starting", "the schema is up to date", "serving", "request", "draining", "stopped"} {
		if !msgs[m] {
			t.Errorf("no %q line in the log:\n%s", m, r.Stdout())
		}
	}
	all := r.Stdout() + r.Stderr()
	for _, secret := range []string{"pw-never-logged", "oidc-never-logged", "token-never-logged", "code-never-logged"} {
		if strings.Contains(all, secret) {
			t.Errorf("the output holds %q:\n%s", secret, all)
		}
	}
	if !strings.Contains(r.Stderr(), "This build has test routes") || strings.Contains(r.Stdout(), "test routes") {
		t.Errorf("a component's notice is not on stderr alone:\nstdout:\n%s\nstderr:\n%s", r.Stdout(), r.Stderr())
	}
	if !strings.Contains(all, `"oidc_client_secret":"set"`) {
		t.Errorf("the start line does not say the client secret is set:\n%s", all)
	}
}

// PostgreSQL unreachable: exit 1 with what to check, and the password
// the URL carried appears nowhere.
func TestRefusesAnUnreachableDatabase(t *testing.T) {
	env := teamtest.Env("postgres://osf:pw-never-logged@127.0.0.1:1/osfoundry?sslmode=disable&connect_timeout=5")
	r := teamtest.Launch(t, env)
	code, err := r.Wait(wait)
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.Contains(r.Stderr(), "osfoundry team-server: cannot reach PostgreSQL at 127.0.0.1:1") ||
		!strings.Contains(r.Stderr(), "check the database URL") {
		t.Fatalf("exit %d, stderr %q", code, r.Stderr())
	}
	if _, err := r.WaitLog(time.Second, func(l teamtest.Line) bool { return l["msg"] == "refusing to start" && l["level"] == "ERROR" }); err != nil {
		t.Errorf("no refusal in the JSON log: %v\n%s", err, r.Stdout())
	}
	if strings.Contains(r.Stdout()+r.Stderr(), "pw-never-logged") {
		t.Error("the password is in the output")
	}
}

// A setting that is wrong stops the server before it touches anything,
// with every problem on its own line.
func TestRefusesBadSettingsSayingWhatToFix(t *testing.T) {
	r := teamtest.Launch(t, []string{"OSF_PUBLIC_URL=http://team.example.com", "OSF_LISTEN=8780"})
	code, err := r.Wait(wait)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"no database: set OSF_DATABASE_URL", "use https://team.example.com", `the listen address "8780" is not host:port`} {
		if !strings.Contains(r.Stderr(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr())
		}
	}
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}

// A database migrated by a newer release: exit 3, saying to upgrade.
func TestRefusesANewerSchema(t *testing.T) {
	url := pgtest.Database(t)
	r := teamtest.Start(t, teamtest.Env(url))
	r.Signal(os.Interrupt)
	if code, err := r.Wait(wait); err != nil || code != 0 {
		t.Fatalf("first replica: exit %d, %v", code, err)
	}
	execSQL(t, url, `INSERT INTO schema_server (version_id, is_applied) VALUES (9999, true)`)
	r = teamtest.Launch(t, teamtest.Env(url))
	code, err := r.Wait(wait)
	if err != nil {
		t.Fatal(err)
	}
	if code != 3 || !strings.Contains(r.Stderr(), "newer than this server") || !strings.Contains(r.Stderr(), "server is at version 9999") ||
		!strings.Contains(r.Stderr(), "upgrade this server") {
		t.Fatalf("exit %d, stderr %q", code, r.Stderr())
	}
}

// Two replicas started at once on an empty database: both serve, each
// migration ran once, and both are in server_replicas.
func TestTwoReplicasStartingAtOnceMigrateOnce(t *testing.T) {
	url := pgtest.Database(t)
	a, b := teamtest.Launch(t, teamtest.Env(url)), teamtest.Launch(t, teamtest.Env(url))
	for _, r := range []*teamtest.Replica{a, b} {
		if _, err := r.WaitLog(wait, func(l teamtest.Line) bool { return l["msg"] == "serving" }); err != nil {
			t.Fatalf("%v\n%s\n%s", err, r.Stdout(), r.Stderr())
		}
	}
	files, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, url, `SELECT count(*) FROM schema_server WHERE version_id > 0`); n != len(files) {
		t.Errorf("%d migrations applied, want each of %d once", n, len(files))
	}
	waitFor(t, "both replicas in server_replicas", func() bool {
		return count(t, url, `SELECT count(*) FROM server_replicas`) == 2
	})
	a.Signal(os.Interrupt)
	if code, err := a.Wait(wait); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if n := count(t, url, `SELECT count(*) FROM server_replicas`); n != 1 {
		t.Errorf("%d rows in server_replicas after one replica stopped, want 1", n)
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
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
		t.Fatal(err)
	}
}

func count(t *testing.T, url, sql string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// waitFor polls cond until it holds, failing t after the deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", wait, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
