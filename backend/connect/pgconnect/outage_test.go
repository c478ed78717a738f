package pgconnect_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// PostgreSQL stopped under the replicas: the token endpoint, tool calls
// and the consent page answer 503 with Retry-After (never "unknown
// client", never a sign-in loop), and the same requests succeed again by
// themselves once PostgreSQL is back.
func TestPostgreSQLAwayAnswers503AndRecovers(t *testing.T) {
	pg, err := pgtest.Start() // a cluster of its own: stopping it must not touch other tests
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Remove)
	tm := newTeamOn(t, pg.Database(t), connect.ServerConfig{})
	b := tm.signedIn()
	client, access, rt := tm.login(b)

	if err := pg.Stop(); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // on both replicas
		status, out := tm.refresh(client, rt)
		if status != http.StatusServiceUnavailable || out["error"] == "invalid_client" || out["error"] == "invalid_grant" {
			t.Fatalf("refresh %d with PostgreSQL away: %d %v, want 503", i, status, out)
		}
		if status, _ := tm.call(access, "list_granted_resources"); status != http.StatusServiceUnavailable {
			t.Fatalf("call %d with PostgreSQL away: %d, want 503", i, status)
		}
		resp, err := b.Client.Get(tm.authURL(client, "http://127.0.0.1:9/cb", "0123456789012345678901234567890123456789012"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("consent page %d with PostgreSQL away: %d (Retry-After %q), want 503", i, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}

	if err := pg.Start(); err != nil {
		t.Fatal(err)
	}
	// A pooled connection from before the restart fails once and is
	// dropped; retrying as Retry-After says gets through.
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, out := tm.refresh(client, rt)
		if status == http.StatusOK {
			access = out["access_token"].(string)
			break
		}
		if status != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("refresh after PostgreSQL came back: %d %v", status, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for i := range 4 { // each replica, each retrying what Retry-After allows
		for {
			status, ok := tm.call(access, "list_granted_resources")
			if status == http.StatusOK && ok {
				break
			}
			if status != http.StatusServiceUnavailable || time.Now().After(deadline) {
				t.Fatalf("call %d after PostgreSQL came back: %d ok=%v", i, status, ok)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}
