package storetest

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
)

// accessRow reads what one tool call is decided on, and how the
// connection's projects, invites and tools change it.
func accessRow(t *testing.T, e Env) {
	st := e.Store
	insertConnection(t, st, "conn_1", connect.StatusConnected)
	_, err := st.InsertUser(bg, connect.User{ID: "usr_ed", Name: "Ed"}, t0)
	must(t, err)
	must(t, st.InsertConnection(bg, connect.ConnectionRow{ID: "conn_ed", DisplayName: "Ed's", Assistant: "Claude", Status: connect.StatusConnected,
		Workspace: "ws-a", Approver: "usr_ed", CreatedAt: t0}))
	must(t, st.AddProject(bg, "conn_1", "p2", t0.Add(time.Second)))
	must(t, st.AddProject(bg, "conn_1", "p1", t0))
	must(t, st.AddProject(bg, "conn_1", "p1", t0.Add(time.Hour))) // kept as it was
	must(t, st.InviteChannel(bg, "conn_1", "ch-1", "usr_ed", t0))
	must(t, st.SetDisabledTools(bg, "conn_1", []string{"write_note", "run"}))
	must(t, st.SetDisabledTools(bg, "conn_1", []string{"write_note"}))
	c, err := st.Connection(bg, "conn_1")
	must(t, err)
	if !slices.Equal(c.Projects, []string{"p1", "p2"}) || !slices.Equal(c.Channels, []string{"ch-1"}) {
		t.Fatalf("projects and channels in the order added: %+v", c)
	}
	if off, _ := st.DisabledTools(bg, "conn_1"); !slices.Equal(off, []string{"write_note"}) {
		t.Fatalf("disabled tools: %v", off)
	}
	a, err := st.Access(bg, connect.AccessQuery{ConnectionID: "conn_1", Tool: "write_note", Project: "p1", Channel: "ch-1", InviteFrom: "usr_ed"})
	must(t, err)
	want := connect.AccessRow{Status: connect.StatusConnected, Workspace: "ws-a", Approver: connect.OwnerID, ToolOff: true, InProject: true,
		Invited: true, ApproverKnown: true, ApproverAdmin: true}
	if a != want {
		t.Fatalf("access row:\n got %+v\nwant %+v", a, want)
	}
	a, err = st.Access(bg, connect.AccessQuery{ConnectionID: "conn_1", Tool: "read_note", Project: "p9", Channel: "ch-1", InviteFrom: "usr_other"})
	must(t, err)
	if a.ToolOff || a.InProject || a.Invited {
		t.Fatalf("another tool, project and inviter: %+v", a)
	}
	must(t, st.SetRole(bg, "usr_ed", connect.Role{Workspace: "ws-a", Role: "viewer"}))
	must(t, st.SetRole(bg, "usr_ed", connect.Role{Workspace: "ws-a", Project: "p1", Role: "editor"}))
	for _, c := range []struct {
		project string
		role    int
	}{{"p1", 2}, {"p2", 1}} {
		a, err := st.Access(bg, connect.AccessQuery{ConnectionID: "conn_ed", Tool: "x", Project: c.project})
		must(t, err)
		if a.ApproverAdmin || !a.ApproverKnown || a.Role != c.role {
			t.Fatalf("Ed's access on %s: %+v, want role %d", c.project, a, c.role)
		}
	}
	if _, err := st.Access(bg, connect.AccessQuery{ConnectionID: "conn_none"}); !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("access of an unknown connection: %v", err)
	}
	if ok, _ := st.Invited(bg, "conn_1", "ch-1", ""); !ok {
		t.Fatal("an invite from anyone was not found")
	}
	if ok, _ := st.RemoveProject(bg, "conn_1", "p1"); !ok {
		t.Fatal("removing a project found nothing")
	}
	if ok, _ := st.RemoveProject(bg, "conn_1", "p1"); ok {
		t.Fatal("removing a project twice removed something")
	}
	if ok, _ := st.RemoveChannel(bg, "conn_1", "ch-1"); !ok {
		t.Fatal("removing an invite found nothing")
	}
	carried, err := st.Carried(bg, connect.OwnerID)
	must(t, err)
	if len(carried) != 2 || carried[0] != (connect.CarriedRow{Kind: "tool", ConnectionID: "conn_1", Value: "write_note"}) ||
		carried[1] != (connect.CarriedRow{Kind: "project", ConnectionID: "conn_1", Value: "p2"}) {
		t.Fatalf("what the owner's connections carry: %+v", carried)
	}
}

// buckets: concurrent updates of one bucket take turns.
func buckets(t *testing.T, e Env) {
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := e.Store.TakeBucket(bg, "registrations loopback", func(b connect.Bucket) connect.Bucket {
				return connect.Bucket{Tokens: b.Tokens + 1, At: t0}
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var got connect.Bucket
	must(t, e.Store.TakeBucket(bg, "registrations loopback", func(b connect.Bucket) connect.Bucket { got = b; return b }))
	if got.Tokens != 20 || !got.At.Equal(t0) {
		t.Fatalf("after 20 updates: %+v", got)
	}
	must(t, e.Store.TakeBucket(bg, "authorizations 192.0.2.1", func(connect.Bucket) connect.Bucket {
		return connect.Bucket{Tokens: 1, At: t0.Add(time.Hour)}
	}))
	must(t, e.Store.ForgetBuckets(bg, t0.Add(time.Minute)))
	for key, want := range map[string]float64{"registrations loopback": 0, "authorizations 192.0.2.1": 1} {
		must(t, e.Store.TakeBucket(bg, key, func(b connect.Bucket) connect.Bucket { got = b; return b }))
		if got.Tokens != want {
			t.Fatalf("bucket %s after forgetting idle ones: %+v", key, got)
		}
	}
}

// purge drops what expired and registrations nothing uses, nothing else.
func purge(t *testing.T, e Env) {
	st := e.Store
	must(t, insertClient(st, "client_a", "used"))
	must(t, insertClient(st, "client_unused", "unused"))
	insertConnection(t, st, "conn_1", connect.StatusConnected)
	must(t, st.InsertCode(bg, connect.CodeRow{Hash: "old-code", ConnectionID: "conn_1", ExpiresAt: t0}))
	must(t, st.InsertSession(bg, connect.SessionRow{Hash: "old", UserID: connect.OwnerID, Kind: "session", ExpiresAt: t0}))
	must(t, st.InsertSession(bg, connect.SessionRow{Hash: "new", UserID: connect.OwnerID, Kind: "session", ExpiresAt: t0.Add(time.Hour)}))
	must(t, st.InsertActivity(bg, connect.Activity{ConnectionID: "conn_1", Tool: "old", Decision: "allowed", At: t0}))
	must(t, st.InsertActivity(bg, connect.Activity{ConnectionID: "conn_1", Tool: "new", Decision: "allowed", At: t0.Add(time.Hour)}))
	cut := t0.Add(time.Minute)
	must(t, st.Purge(bg, connect.PurgeBefore{Codes: cut, AuthRequests: cut, Sessions: cut, Tokens: cut, Activity: cut, UnusedClients: cut}))
	if _, err := st.Session(bg, "old", "session"); !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("an expired session: %v", err)
	}
	if _, err := st.Session(bg, "new", "session"); err != nil {
		t.Fatalf("a live session: %v", err)
	}
	if _, err := st.Client(bg, "client_unused"); !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("an unused registration: %v", err)
	}
	if _, err := st.Client(bg, "client_a"); err != nil {
		t.Fatalf("a registration a connection uses: %v", err)
	}
	acts, err := st.RecentActivity(bg, "", 10)
	must(t, err)
	if len(acts) != 1 || acts[0].Tool != "new" || !acts[0].At.Equal(t0.Add(time.Hour)) {
		t.Fatalf("activity after the purge: %+v", acts)
	}
	err = st.Tokens(bg, func(tx connect.TokenTx) error { _, err := tx.Code("old-code"); return err })
	if !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("an expired code: %v", err)
	}
}

// unstorable: ids no row can hold (a NUL, invalid UTF-8) find nothing,
// as an unknown id does, rather than failing.
func unstorable(t *testing.T, e Env) {
	for _, id := range []string{"a\x00b", "\xff\xfe"} {
		if _, err := e.Store.Client(bg, id); !errors.Is(err, connect.ErrNotFound) {
			t.Errorf("client %q: %v", id, err)
		}
		if _, err := e.Store.AuthRequest(bg, id); !errors.Is(err, connect.ErrNotFound) {
			t.Errorf("auth request %q: %v", id, err)
		}
		if _, err := e.Store.Connection(bg, id); !errors.Is(err, connect.ErrNotFound) {
			t.Errorf("connection %q: %v", id, err)
		}
		if _, err := e.Store.Access(bg, connect.AccessQuery{ConnectionID: id, Tool: "t"}); !errors.Is(err, connect.ErrNotFound) {
			t.Errorf("access of %q: %v", id, err)
		}
		if ok, err := e.Store.TakeOver(bg, connect.ConnectionRow{ID: id}); err != nil || ok {
			t.Errorf("taking over %q: %v %v", id, ok, err)
		}
	}
}
