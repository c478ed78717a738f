// Package storetest is the store test suite every connect.Store must
// pass: the desktop's SQLite file (connect.SQLiteStore) and the team
// server's PostgreSQL (pgconnect). It checks the rows through the
// interface only, so the endpoint's rules in connect.Service can rely on
// the same behaviour from both, including from two processes or server
// replicas on one database at once. Only tests import it.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
)

// Env is one fresh store under test (Open has created the owner).
type Env struct {
	Store connect.Store
	// Replica opens a second store on the same database, as another
	// process or server replica would.
	Replica func(t *testing.T) connect.Store
}

// RunSuite runs every check against a fresh store from open.
func RunSuite(t *testing.T, open func(t *testing.T) Env) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, e Env)
	}{
		{"UsersAndRoles", usersAndRoles},
		{"SignInLinkTakenOnce", signInTakenOnce},
		{"RegistrationBoundUnderRace", registrationBound},
		{"AuthRequestRoundTrip", authRequests},
		{"CodeRedeemedOnceAcrossReplicas", codeOnce},
		{"TakeOverSignsOutThePreviousAssistant", takeOver},
		{"AccessRow", accessRow},
		{"BucketsTakeTurns", buckets},
		{"PurgeKeepsWhatIsUsed", purge},
		{"UnstorableValuesFindNothing", unstorable},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, open(t)) })
	}
}

var bg = context.Background()

// t0 is a fixed time on a millisecond, as both stores keep times.
var t0 = time.Date(2026, 3, 4, 5, 6, 7, 8_000_000, time.UTC)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func usersAndRoles(t *testing.T, e Env) {
	st := e.Store
	ok, err := st.InsertUser(bg, connect.User{ID: "usr_1", Name: "Ada"}, t0)
	must(t, err)
	again, err := st.InsertUser(bg, connect.User{ID: "usr_1", Name: "Other"}, t0)
	must(t, err)
	if !ok || again {
		t.Fatalf("inserting a new user: %v, the same id again: %v", ok, again)
	}
	if _, err := st.UserAdmin(bg, "usr_none"); !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("an unknown user: %v", err)
	}
	must(t, st.SetRole(bg, "usr_1", connect.Role{Workspace: "ws-b", Role: "viewer"}))
	must(t, st.SetRole(bg, "usr_1", connect.Role{Workspace: "ws-a", Project: "p1", Role: "viewer"}))
	must(t, st.SetRole(bg, "usr_1", connect.Role{Workspace: "ws-a", Project: "p1", Role: "editor"}))
	ws, err := st.RoleWorkspaces(bg, "usr_1")
	must(t, err)
	if !slices.Equal(ws, []string{"ws-a", "ws-b"}) {
		t.Fatalf("role workspaces: %v", ws)
	}
	must(t, st.DeleteRole(bg, "usr_1", "ws-b", ""))
	users, err := st.Users(bg)
	must(t, err)
	var ada *connect.User
	for i := range users {
		if users[i].ID == "usr_1" {
			ada = &users[i]
		}
	}
	if ada == nil || ada.Name != "Ada" || ada.Admin || len(ada.Roles) != 1 || ada.Roles[0] != (connect.Role{Workspace: "ws-a", Project: "p1", Role: "editor"}) {
		t.Fatalf("users: %+v", users)
	}
	if admin, err := st.UserAdmin(bg, connect.OwnerID); err != nil || !admin {
		t.Fatalf("the owner: admin %v, %v", admin, err)
	}
}

func signInTakenOnce(t *testing.T, e Env) {
	must(t, e.Store.InsertSession(bg, connect.SessionRow{Hash: "h-link", UserID: connect.OwnerID, Kind: "signin", ExpiresAt: t0}))
	stores := []connect.Store{e.Store, e.Replica(t), e.Store, e.Replica(t)}
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := 0
	for _, st := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := st.TakeSession(bg, "h-link", "signin")
			if err == nil && r.UserID == connect.OwnerID && r.ExpiresAt.Equal(t0) {
				mu.Lock()
				taken++
				mu.Unlock()
			} else if !errors.Is(err, connect.ErrNotFound) {
				t.Errorf("taking a sign-in link: %+v %v", r, err)
			}
		}()
	}
	wg.Wait()
	if taken != 1 {
		t.Fatalf("a sign-in link was taken %d times", taken)
	}
	if _, err := e.Store.Session(bg, "h-link", "signin"); !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("a taken link is still there: %v", err)
	}
}

func registrationBound(t *testing.T, e Env) {
	replica := e.Replica(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	stored := 0
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := e.Store
			if i%2 == 1 {
				st = replica
			}
			ok, err := st.InsertClientUnder(bg, connect.ClientRow{ID: fmt.Sprint("client_", i), Name: "C", RedirectURIs: `["https://a.example/cb"]`,
				Metadata: "{}", CreatedAt: t0}, 4, 1<<20)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				stored++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if stored != 4 {
		t.Fatalf("%d registrations stored under a bound of 4", stored)
	}
	c, err := e.Store.Client(bg, "client_0")
	if err != nil && !errors.Is(err, connect.ErrNotFound) {
		t.Fatal(err)
	}
	if err == nil && (c.Name != "C" || c.RedirectURIs != `["https://a.example/cb"]` || !c.CreatedAt.Equal(t0)) {
		t.Fatalf("client round trip: %+v", c)
	}
	// Past the byte bound nothing is stored, whatever the count.
	big := connect.ClientRow{ID: "client_big", Name: "B", RedirectURIs: "[]", Metadata: "{}", CreatedAt: t0}
	if ok, err := e.Store.InsertClientUnder(bg, big, 100, 100); err != nil || ok {
		t.Fatalf("a registration past the byte bound: stored %v, %v", ok, err)
	}
	if ok, err := e.Store.InsertClientUnder(bg, big, 100, 1<<20); err != nil || !ok {
		t.Fatalf("a registration within both bounds: stored %v, %v", ok, err)
	}
	if _, err := e.Store.Client(bg, "nobody"); !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("an unknown client: %v", err)
	}
}

func authRequests(t *testing.T, e Env) {
	st := e.Store
	must(t, insertClient(st, "client_a", "Claude"))
	// A state is echoed byte for byte, whatever bytes the client chose.
	a := connect.AuthRequestRow{ID: "authz_1", ClientID: "client_a", RedirectURI: "http://127.0.0.1:9/cb", State: "s\x00\xff\u202e",
		Challenge: "c", Scopes: "osfoundry:read", Resource: "http://x/mcp", CSRF: "csrf-1", BrowserHash: "bh", CreatedAt: t0, ExpiresAt: t0.Add(time.Minute)}
	must(t, st.InsertAuthRequest(bg, a))
	must(t, st.InsertAuthRequest(bg, connect.AuthRequestRow{ID: "authz_2", ClientID: "client_a", RedirectURI: "http://127.0.0.1:9/cb",
		CreatedAt: t0.Add(time.Second), ExpiresAt: t0.Add(time.Minute)}))
	got, err := e.Replica(t).AuthRequest(bg, "authz_1")
	must(t, err)
	if got != a {
		t.Fatalf("auth request round trip:\n got %+v\nwant %+v", got, a)
	}
	waiting, err := st.WaitingRequests(bg, t0, 20)
	must(t, err)
	if len(waiting) != 2 || waiting[0].ID != "authz_2" || waiting[1].ClientName != "Claude" || waiting[1].BrowserHash != "bh" {
		t.Fatalf("waiting requests, newest first: %+v", waiting)
	}
	must(t, st.BindAuthRequest(bg, "authz_1", "sess-1", "csrf-2"))
	if waiting, _ = st.WaitingRequests(bg, t0, 20); len(waiting) != 1 {
		t.Fatalf("a bound request still waits: %+v", waiting)
	}
	if waiting, _ = st.WaitingRequests(bg, t0.Add(time.Minute), 20); len(waiting) != 0 {
		t.Fatalf("an expired request still waits: %+v", waiting)
	}
	must(t, st.DeleteAuthRequest(bg, "authz_1"))
	if _, err := st.AuthRequest(bg, "authz_1"); !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("a deleted request: %v", err)
	}
}

func insertClient(st connect.Store, id, name string) error {
	_, err := st.InsertClientUnder(bg, connect.ClientRow{ID: id, Name: name, RedirectURIs: "[]", Metadata: "{}", CreatedAt: t0}, 100, 1<<20)
	return err
}

func insertConnection(t *testing.T, st connect.Store, id, status string) {
	t.Helper()
	must(t, st.InsertConnection(bg, connect.ConnectionRow{ID: id, DisplayName: "Name " + id, Assistant: "Claude", Status: status,
		Workspace: "ws-a", Approver: connect.OwnerID, ClientID: "client_a", Scopes: "osfoundry:read", CreatedAt: t0}))
}
