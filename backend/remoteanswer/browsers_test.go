package remoteanswer

import (
	"bufio"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/teamsessions"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// pinned makes a request as b to one replica (r1, r2) of the team.
func pinned(t *testing.T, b *teamtest.Browser, replica, method, u, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	must(t, err)
	req.Header.Set(teamtest.PinHeader, replica)
	req.Header.Set("Origin", req.URL.Scheme+"://"+req.URL.Host)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.Once.Do(req)
	must(t, err)
	return resp
}

// TestRevokedBrowserNeitherSeesNorAnswersNorGetsPushes: alice signed in on
// her phone too; the phone turned pushes on and keeps the page's event
// stream open on one replica. Alice signs the phone out from her laptop
// through the other replica: at once its stream ends, the page sends it to
// sign in, its answers and reads are refused on both replicas and no push
// reaches it; her laptop stays signed in. Bob cannot sign her phone out.
func TestRevokedBrowserNeitherSeesNorAnswersNorGetsPushes(t *testing.T) {
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	base := tm.LB.URL
	phone := tm.LB.NewBrowser(tm.OP)
	if _, err := phone.SignIn(base+"/needs-you", "alice"); err != nil {
		t.Fatal(err)
	}
	// The phone's push service: a listener that takes every push.
	var pushes atomic.Int32
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		pushes.Add(1)
		w.WriteHeader(http.StatusCreated)
	}))
	defer service.Close()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	must(t, err)
	auth := make([]byte, 16)
	rand.Read(auth)
	b64 := base64.RawURLEncoding.EncodeToString
	must(t, phone.API("POST", base+"/api/push/subscriptions", map[string]any{"endpoint": service.URL + "/push/phone",
		"keys": map[string]string{"p256dh": b64(key.PublicKey().Bytes()), "auth": b64(auth)}}, nil))
	var test struct {
		WebPush int `json:"web_push"`
	}
	must(t, tm.Owner.API("POST", base+"/api/push/test", nil, &test))
	if test.WebPush != 1 || pushes.Load() != 1 {
		t.Fatalf("a test push before the sign-out reached %d browsers (%d requests)", test.WebPush, pushes.Load())
	}

	var list teamsessions.Browsers
	must(t, tm.Owner.API("GET", base+"/api/sessions/browsers", nil, &list))
	var phoneID, laptopID string
	for _, b := range list.Browsers {
		switch {
		case b.Current && b.Pushes == 0 && !b.SignedOut:
			laptopID = b.ID
		case !b.Current && b.Pushes == 1 && !b.SignedOut:
			phoneID = b.ID
		}
	}
	if len(list.Browsers) != 2 || phoneID == "" || laptopID == "" {
		t.Fatalf("alice's browsers: %+v", list)
	}
	if !strings.Contains(list.Browsers[0].UserAgent, "Go-http-client") || list.Browsers[0].Name != "A browser" {
		t.Fatalf("a browser's name: %+v", list.Browsers[0])
	}

	// The phone's page listens on r2.
	stream := pinned(t, phone, "r2", "GET", base+"/api/sessions/events", "")
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("the phone's event stream: %s", stream.Status)
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(stream.Body)
		for sc.Scan() {
		}
	}()

	// Bob cannot sign alice's phone out.
	bob := tm.LB.NewBrowser(tm.OP)
	if _, err := bob.SignIn(base+"/needs-you", "bob"); err != nil {
		t.Fatal(err)
	}
	if err := bob.API("POST", base+"/api/sessions/browsers/"+phoneID+"/revoke", nil, nil); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("bob signing alice's phone out: %v", err)
	}
	if resp := pinned(t, phone, "r1", "GET", base+"/api/sessions", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("the phone before the sign-out: %s", resp.Status)
	}

	// Alice signs the phone out from her laptop, through r1.
	resp := pinned(t, tm.Owner, "r1", "POST", base+"/api/sessions/browsers/"+phoneID+"/revoke", "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("signing the phone out: %s", resp.Status)
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the phone's event stream on r2 still runs after its sign-out")
	}
	stream.Body.Close()
	for _, r := range []string{"r1", "r2"} {
		resp := pinned(t, phone, r, "GET", base+"/api/sessions", "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the phone reading on %s after its sign-out: %s", r, resp.Status)
		}
		resp = pinned(t, phone, r, "POST", base+"/api/sessions/answers", `{"device":"d","session":"terminal/p-1","since":1,"answer":"approve"}`)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the phone answering on %s after its sign-out: %s", r, resp.Status)
		}
		resp = pinned(t, phone, r, "GET", base+"/needs-you", "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "/auth/login") {
			t.Fatalf("the phone's page on %s after its sign-out: %s to %q", r, resp.Status, resp.Header.Get("Location"))
		}
	}
	must(t, tm.Owner.API("POST", base+"/api/push/test", nil, &test))
	if test.WebPush != 0 || pushes.Load() != 1 {
		t.Fatalf("a push after the sign-out reached %d browsers (%d requests in all)", test.WebPush, pushes.Load())
	}
	// A link to the server's pages followed from another site lands first
	// (its Strict cookie is left out of such a navigation), then asks again.
	for _, path := range []string{"/", "/needs-you"} {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		resp, err := tm.LB.Client.Do(req)
		must(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `<meta http-equiv="refresh" content="0;url=`+path+`">`) {
			t.Fatalf("%s from another site: %s\n%s", path, resp.Status, body)
		}
	}
	must(t, tm.Owner.API("GET", base+"/api/sessions/browsers", nil, &list))
	if len(list.Browsers) != 1 || list.Browsers[0].ID != laptopID {
		t.Fatalf("alice's browsers after the sign-out: %+v", list)
	}
	if err := tm.Owner.API("POST", base+"/api/sessions/browsers/"+phoneID+"/revoke", nil, nil); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("signing the phone out twice: %v", err)
	}
}
