package teamsessions

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/pghub"
	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

var bg = context.Background()

// TestMain stops the test binary's PostgreSQL cluster afterwards.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// service is the store over a fresh database with two people, alice with
// two signed-in desktops and one signed out, bob with one.
func service(t *testing.T) (*Service, *time.Time) {
	t.Helper()
	pool, err := pgdb.Open(bg, pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := pgdb.Migrate(bg, pool, teamauth.Component, teamauth.Migrations()); err != nil {
		t.Fatal(err)
	}
	if err := pgdb.Migrate(bg, pool, Component, Migrations()); err != nil {
		t.Fatal(err)
	}
	exec(t, pool,
		`INSERT INTO teamauth_people (id, issuer, subject, created_at, signed_in_at) VALUES
			('alice', 'op', 'a', now(), now()), ('bob', 'op', 'b', now(), now())`,
		`INSERT INTO teamauth_desktop_tokens (hash, kind, family, person_id, device, created_at, expires_at, revoked) VALUES
			('h1', 'refresh', 'fam-laptop', 'alice', 'laptop', now(), now() + interval '30 days', false),
			('h2', 'refresh', 'fam-desk', 'alice', 'desk', now(), now() + interval '30 days', false),
			('h3', 'refresh', 'fam-old', 'alice', 'old', now(), now() + interval '30 days', true),
			('h4', 'refresh', 'fam-bob', 'bob', 'bob-laptop', now(), now() + interval '30 days', false)`)
	now := time.Now()
	s := &Service{cfg: Config{Pool: pool, Now: func() time.Time { return now }}, hub: pghub.New(notifyChannel)}
	return s, &now
}

func exec(t *testing.T, pool *pgxpool.Pool, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := pool.Exec(bg, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

var (
	laptop = teamauth.Device{Key: "fam-laptop", Name: "laptop"}
	desk   = teamauth.Device{Key: "fam-desk", Name: "desk"}
	old    = teamauth.Device{Key: "fam-old", Name: "old"}
	bobs   = teamauth.Device{Key: "fam-bob", Name: "bob-laptop"}
)

func names(sh Shared) []string {
	var out []string
	for _, d := range sh.Devices {
		out = append(out, d.Name)
	}
	return out
}

// Each upload replaces the device's list; a person reads only their own,
// from desktops still signed in and heard from lately; Delete is at once.
func TestSharedSessionsPerPersonAndDevice(t *testing.T) {
	s, now := service(t)
	first := []Session{{Kind: "terminal", Title: "Claude Code in api", State: "needs_you", Line: "Allow edit?"}, {Kind: "chat", Title: "Plan", State: "running"}}
	for _, up := range []struct {
		d  teamauth.Device
		p  string
		ss []Session
	}{{laptop, "alice", first}, {desk, "alice", nil}, {old, "alice", first}, {bobs, "bob", first[:1]}} {
		if err := s.Put(bg, up.p, up.d, up.ss); err != nil {
			t.Fatal(err)
		}
	}
	second := []Session{{Kind: "chat", Title: "Plan", State: "done"}}
	if err := s.Put(bg, "alice", laptop, second); err != nil {
		t.Fatal(err)
	}
	sh, err := s.Shared(bg, "alice", "fam-desk")
	if err != nil {
		t.Fatal(err)
	}
	// The signed-out desktop ("old") is not listed, nor bob's.
	if got := names(sh); !reflect.DeepEqual(got, []string{"desk", "laptop"}) && !reflect.DeepEqual(got, []string{"laptop", "desk"}) {
		t.Fatalf("alice's devices: %v", got)
	}
	for _, d := range sh.Devices {
		switch d.Name {
		case "laptop":
			if d.Current || !reflect.DeepEqual(d.Sessions, second) {
				t.Fatalf("the laptop after its second upload: %+v", d)
			}
		case "desk":
			if !d.Current || len(d.Sessions) != 0 {
				t.Fatalf("the desk, which shares an empty board: %+v", d)
			}
		}
	}
	if sh, _ := s.Shared(bg, "bob", ""); !reflect.DeepEqual(names(sh), []string{"bob-laptop"}) {
		t.Fatalf("bob reads %+v", sh)
	}
	if err := s.Delete(bg, "alice", "fam-laptop"); err != nil {
		t.Fatal(err)
	}
	if sh, _ := s.Shared(bg, "alice", ""); !reflect.DeepEqual(names(sh), []string{"desk"}) {
		t.Fatalf("after deleting the laptop's: %v", names(sh))
	}
	// A desktop silent for longer than StaleAfter was closed: not listed.
	*now = now.Add(StaleAfter + time.Second)
	if sh, _ := s.Shared(bg, "alice", ""); len(sh.Devices) != 0 {
		t.Fatalf("stale devices listed: %v", names(sh))
	}
	// The table itself refuses a line on a session that does not need you.
	if _, err := s.cfg.Pool.Exec(bg, `INSERT INTO shared_sessions VALUES ('alice', 'fam-desk', 9, 'chat', 'x', 'running', 'screen text')`); err == nil {
		t.Fatal("the table took a line for a running session")
	}
}

// An upload is the kind, title, state and a line only while it needs you.
func TestUploadCheck(t *testing.T) {
	ok := Session{Kind: "terminal", Title: "Claude Code", State: "needs_you", Line: "Allow?"}
	for name, c := range map[string]struct {
		u    Upload
		want string
	}{
		"fine":              {Upload{Sessions: []Session{ok, {Kind: "chat", Title: "t", State: "idle"}}}, ""},
		"line not needed":   {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "running", Line: "x"}}}, "only while a session needs you"},
		"unknown kind":      {Upload{Sessions: []Session{{Kind: "shell", Title: "t", State: "idle"}}}, "kind \"shell\""},
		"unknown state":     {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "blocked"}}}, "state \"blocked\""},
		"two lines":         {Upload{Sessions: []Session{{Kind: "chat", Title: "a\nb", State: "idle"}}}, "one line"},
		"too long a line":   {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "needs_you", Line: strings.Repeat("x", MaxLine+1)}}}, "at most 300"},
		"too many":          {Upload{Sessions: make([]Session, MaxSessions+1)}, "send the newest 200"},
		"an empty board":    {Upload{}, ""},
		"an escape inside":  {Upload{Sessions: []Session{{Kind: "chat", Title: "t\x1b[2J", State: "idle"}}}, "without control characters"},
		"a path as id":      {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "idle", ID: "/home/alice/x y"}}}, "the id must be"},
		"choices running":   {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "running", Choices: 2}}}, "choices are shared only"},
		"ten choices":       {Upload{Sessions: []Session{{Kind: "terminal", Title: "t", State: "needs_you", Choices: 10}}}, "0 to 9"},
		"negative since":    {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "idle", Since: -1}}}, "not negative"},
		"a chat's question": {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "needs_you", Asks: AsksReply}, {Kind: "agent", Title: "t", State: "needs_you", Asks: AsksApproval}}}, ""},
		"asks of its own":   {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "needs_you", Asks: "run"}}}, `asks is "approval" or "reply"`},
		"asks while idle":   {Upload{Sessions: []Session{{Kind: "chat", Title: "t", State: "idle", Asks: AsksReply}}}, "send it without \"asks\""},
		"a terminal asks":   {Upload{Sessions: []Session{{Kind: "terminal", Title: "t", State: "needs_you", Asks: AsksApproval}}}, "send it without \"asks\""},
	} {
		err := c.u.check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// A change is announced to the person's readers through PostgreSQL, and
// only to theirs.
func TestChangesAreAnnounced(t *testing.T) {
	s, _ := service(t)
	ctx, stop := context.WithCancel(bg)
	defer stop()
	if err := s.Listen(ctx); err != nil || s.Ready() != nil {
		t.Fatalf("listening: %v, ready: %v", err, s.Ready())
	}
	alice, stopA := s.hub.Subscribe("alice")
	defer stopA()
	bob, stopB := s.hub.Subscribe("bob")
	defer stopB()
	// The listener wakes every reader once when it starts: not a change.
	time.Sleep(100 * time.Millisecond)
	for _, ch := range []<-chan struct{}{alice, bob} {
		select {
		case <-ch:
		default:
		}
	}
	t0 := time.Now()
	if err := s.Put(bg, "alice", laptop, []Session{{Kind: "chat", Title: "t", State: "idle"}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-alice:
		t.Logf("announced after %v", time.Since(t0))
	case <-time.After(time.Second):
		t.Fatal("alice's readers were not told within a second")
	}
	select {
	case <-bob:
		t.Fatal("bob's readers were told of alice's change")
	case <-time.After(100 * time.Millisecond):
	}
}

// A session that starts needing its person is told once, after the
// upload: not again while it keeps waiting, again once it ran and asks
// anew; other devices' and other states' sessions are not.
func TestNeedsYouIsToldWhenASessionStartsWaiting(t *testing.T) {
	s, _ := service(t)
	told := make(chan string, 10)
	s.cfg.NeedsYou = func(_ context.Context, person string, d teamauth.Device, ss Session) {
		told <- person + " " + d.Name + " " + ss.Title + ": " + ss.Line
	}
	ask := Session{Kind: "terminal", Title: "Claude Code in api", State: NeedsYou, Line: "Allow edit?"}
	run := Session{Kind: "terminal", Title: "Claude Code in api", State: "running"}
	chat := Session{Kind: "chat", Title: "Plan", State: "running"}
	steps := []struct {
		d    teamauth.Device
		p    string
		ss   []Session
		want []string
	}{
		{laptop, "alice", []Session{ask, chat}, []string{"alice laptop Claude Code in api: Allow edit?"}},
		{laptop, "alice", []Session{ask, chat}, nil}, // still waiting
		{desk, "alice", []Session{ask}, []string{"alice desk Claude Code in api: Allow edit?"}},
		{laptop, "alice", []Session{run}, nil},
		{laptop, "alice", []Session{ask}, []string{"alice laptop Claude Code in api: Allow edit?"}},
		{bobs, "bob", []Session{chat}, nil},
	}
	for i, st := range steps {
		if err := s.Put(bg, st.p, st.d, st.ss); err != nil {
			t.Fatal(err)
		}
		var got []string
		for range st.want {
			select {
			case g := <-told:
				got = append(got, g)
			case <-time.After(5 * time.Second):
			}
		}
		select {
		case extra := <-told:
			got = append(got, extra)
		case <-time.After(100 * time.Millisecond):
		}
		if !reflect.DeepEqual(got, st.want) {
			t.Fatalf("step %d: told %v, want %v", i, got, st.want)
		}
	}
}
